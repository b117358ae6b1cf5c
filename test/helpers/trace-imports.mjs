// `node --import <this file> …`: appends every module URL the process loads to $MNEMO_TRACE_IMPORTS,
// one per line, so a test can prove which drivers a command never loads.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (process.env.MNEMO_TRACE_IMPORTS) appendFileSync(process.env.MNEMO_TRACE_IMPORTS, result.url + '\\n');
      return result;
    }
  `)}`,
);
