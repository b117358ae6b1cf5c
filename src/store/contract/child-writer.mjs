// Child process for the store contract's multi-process test. Usage:
//   node child-writer.mjs '<ChildOpener JSON>' <writer number> <count>
// Opens the shared store the way the backend says, writes `count` memories with vectors, exits 0 only if
// every write succeeded.
const [openerJson, writerArg, countArg] = process.argv.slice(2);
const opener = JSON.parse(openerJson);
const writer = Number(writerArg);
const count = Number(countArg);

const module = await import(opener.module);
const store = await module[opener.exportName](opener.options);
try {
  for (let i = 0; i < count; i += 1) {
    const values = new Float32Array(8);
    values[writer % 8] = 1;
    values[i % 8] += 0.5;
    const outcome = await store.remember(
      {
        content: `writer ${writer} memory ${i}: concurrent capture from a hook process`,
        projectKey: 'concurrency-project',
        tags: [`writer-${writer}`],
        origin: 'local_exec',
      },
      { vector: { model: 'child-model', values } },
    );
    if (!outcome.created) throw new Error(`writer ${writer} memory ${i} was deduped`);
  }
} finally {
  await store.close();
}
