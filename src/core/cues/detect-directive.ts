/**
 * Is a text *directive-shaped*: an imperative instruction addressed to the agent ("always ...", "never
 * ...", "run ...", "use X for every ...", "ignore ...", "you must ...")? Used only to RESTRICT: a network
 * fragment that is directive-shaped may be grouped into a quarantined cluster (threat model W8); nothing
 * here can ever grant a privilege, lift a memory out of review or out of a cluster.
 *
 * Imperatives are recognised at the start of a clause (text start, a line start, or after `.`, `!`,
 * `?`, `;`, `:`, a bullet or a quote), so "the function always returns" is not one and "Always run the
 * tests." is. Second-person obligations ("you must") and instructions about earlier text ("ignore the
 * above") match anywhere. Every pattern is a flat alternation with fixed-width look-behind and no nested
 * quantifier, so a scan is linear in the text; the whole text is scanned, so padding cannot hide a
 * directive past a cut-off.
 */

// A clause starts at the text start or after a line break, sentence mark, bullet or quote, with spaces.
const CLAUSE = String.raw`(?:^|[\n.!?;:*>"'“«(\-•]) {0,8}`;
const END = String.raw`(?![\p{L}\p{N}_])`;
const START = String.raw`(?<![\p{L}\p{N}_])`;

function clauseStart(verbs: readonly string[]): RegExp {
  return new RegExp(`${CLAUSE}(?:${verbs.join('|')})${END}`, 'iu');
}

function anywhere(phrases: readonly string[]): RegExp {
  return new RegExp(`${START}(?:${phrases.join('|')})${END}`, 'iu');
}

/** Imperatives that count only at the start of a clause. */
const CLAUSE_IMPERATIVES = clauseStart([
  // English
  'always',
  'never',
  'run',
  'execute',
  'ignore',
  'disregard',
  'forget',
  'do not',
  "don't",
  'make sure to',
  'be sure to',
  'remember to',
  'from now on',
  'use \\S{1,64} (?:for|on|in) (?:every|all|each|any)',
  'send',
  'upload',
  // French
  'toujours',
  'ne jamais',
  'jamais',
  'exécutez',
  'exécute',
  'lancez',
  'ignorez',
  'utilisez',
  'désormais',
  // Spanish
  'siempre',
  'nunca',
  'ejecuta',
  'ejecute',
  'ignora',
  'ignore',
  'utiliza',
  // German
  'immer',
  'niemals',
  'nie',
  'führe',
  'ignoriere',
  'ignorieren sie',
  'verwende',
  'benutze',
  // Russian
  'всегда',
  'никогда',
  'запусти',
  'выполни',
  'игнорируй',
  'используй',
]);

/** Obligations addressed to the reader, and instructions about other instructions: anywhere. */
const ADDRESSED = anywhere([
  'you must',
  'you should always',
  'you should never',
  'you have to',
  'you need to always',
  'you are required to',
  'the (?:assistant|agent|ai|model) (?:must|should|shall)',
  'ignore (?:all|any|the|previous|prior|earlier|above)',
  'disregard (?:all|any|the|previous|prior|earlier|above)',
  'for every (?:command|request|task|commit|file|session)',
  'vous devez',
  'tu dois',
  'debes',
  'usted debe',
  'du musst',
  'sie müssen',
  'ты должен',
  'вы должны',
]);

/** Scripts without word boundaries: imperatives and obligations match as substrings. */
const CJK =
  /必须|必須|总是|總是|永远不要|永遠不要|不要|忽略|无视|运行|执行|執行|必ず|常に|決して|無視して|実行して|반드시|항상|절대|무시하고|실행하/u;

const PATTERNS: readonly RegExp[] = [CLAUSE_IMPERATIVES, ADDRESSED, CJK];

/** The patterns, for the structural linear-time check of the tests. */
export const DIRECTIVE_PATTERNS: readonly RegExp[] = PATTERNS;

/**
 * Whether `text` reads as an instruction to the agent. NFKC-folded first so fullwidth look-alikes count;
 * anything that is not a non-empty string is not directive-shaped.
 */
export function isDirectiveShaped(text: string): boolean {
  if (typeof text !== 'string' || text.length === 0) return false;
  const folded = text.normalize('NFKC');
  return PATTERNS.some((pattern) => pattern.test(folded));
}
