import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The working directories the synthetic transcripts were written in. */
export const FIXTURE_WORK = '/home/dev/work';
/**
 * The secret the fixtures carry as `__SECRET_GH__`, assembled here so no secret-shaped string is
 * committed (the adversarial corpus does the same with `$concat`).
 */
export const FIXTURE_SECRET = ['ghp_', 'R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXy9'].join('');

/** Session ids of the fixture transcripts. */
export const TRANSCRIPT_SESSIONS = {
  acmeFix: '3b8e5c2d-7a14-4f0e-9c61-5d2a8e7f4b90',
  acmeHostile: '7c6b5a49-3d2e-4f10-8a9b-c0d1e2f3a4b5',
  shop: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
  gone: '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
} as const;

const FIXTURE_TREE = fileURLToPath(new URL('../fixtures/transcripts/projects', import.meta.url));

/** A copy of test/fixtures/transcripts re-rooted under a temporary directory. */
export interface TranscriptTree {
  /** The copied projects directory (what `--path` takes). */
  readonly projects: string;
  /** The re-rooted working directories; `acme` and `shop` exist as git roots, `gone` does not. */
  readonly acme: string;
  readonly shop: string;
  readonly gone: string;
  /** The transcript of a session in the copy. */
  transcript(session: keyof typeof TRANSCRIPT_SESSIONS): string;
}

/**
 * Copies the fixture tree into `root` (or its projects folder into `projectsDir`), replacing the recorded working directory with `root/work` and
 * the secret placeholder with {@link FIXTURE_SECRET}. The two live projects are created as git roots.
 */
export function copyTranscriptTree(root: string, projectsDir?: string): TranscriptTree {
  const work = join(root, 'work');
  const acme = join(work, 'acme-api');
  const shop = join(work, 'shop-web');
  for (const dir of [acme, shop]) mkdirSync(join(dir, '.git'), { recursive: true });
  const projects = projectsDir ?? join(root, 'claude', 'projects');
  cpSync(FIXTURE_TREE, projects, { recursive: true });
  const realWork = realpathSync(work);
  for (const file of listFiles(projects)) {
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.split(FIXTURE_WORK).join(realWork).split('__SECRET_GH__').join(FIXTURE_SECRET),
    );
  }
  const dirs: Record<keyof typeof TRANSCRIPT_SESSIONS, string> = {
    acmeFix: '-home-dev-work-acme-api',
    acmeHostile: '-home-dev-work-acme-api',
    shop: '-home-dev-work-shop-web',
    gone: '-home-dev-work-gone-project',
  };
  return {
    projects,
    acme: realpathSync(acme),
    shop: realpathSync(shop),
    gone: join(realWork, 'gone-project'),
    transcript: (session) => join(projects, dirs[session], `${TRANSCRIPT_SESSIONS[session]}.jsonl`),
  };
}

/** Every file under `dir`, recursively. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Path, size, mtime and bytes of every file under `dir`: the oracle for "nothing was written here". */
export function treeSnapshot(dir: string): string[] {
  return listFiles(dir)
    .sort()
    .map((file) => {
      const info = statSync(file);
      return `${relative(dir, file)} ${info.size} ${info.mtimeMs} ${readFileSync(file, 'base64')}`;
    });
}
