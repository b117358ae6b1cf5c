/**
 * Generates tiny but genuine transformers.js model directories for tests: a BERT-style encoder whose ONNX
 * graph is an embedding lookup masked by the attention mask (so mean pooling over it is a bag of word
 * vectors), and a cross-encoder whose logit sums one score per token. Both come with a real WordPiece
 * `tokenizer.json`, so tokenizing, batching, padding, pooling and caching run exactly as they would for a
 * downloaded model; only the weights are made up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export interface TinyModelOptions {
  /** Plain lowercase words of the vocabulary (special tokens are added). */
  words: readonly string[];
  /** Hidden size of the encoder. */
  dims?: number;
  /**
   * The vector of a word; default: a deterministic pseudo-random vector per word. Special tokens get
   * zero vectors so that `[CLS]`/`[SEP]` do not dominate the mean.
   */
  vectorOf?: (word: string, index: number) => number[];
}

/** Writes a feature-extraction model directory (`config.json`, tokenizer, `onnx/model.onnx`) and returns it. */
export function writeTinyEncoder(dir: string, options: TinyModelOptions): string {
  const dims = options.dims ?? 16;
  const vocab = [...SPECIAL, ...options.words];
  const matrix: number[] = [];
  vocab.forEach((token, index) => {
    const isSpecial = (SPECIAL as readonly string[]).includes(token);
    const row = isSpecial
      ? new Array<number>(dims).fill(0)
      : (options.vectorOf?.(token, index) ?? pseudoRandomVector(index, dims));
    if (row.length !== dims) throw new Error(`vector of "${token}" has ${row.length} dims`);
    matrix.push(...row);
  });
  const graph = onnx.GraphProto.create({
    name: 'tiny-encoder',
    initializer: [
      floatTensor('embeddings', [vocab.length, dims], matrix),
      int64Tensor('unsqueeze_axes', [1], [-1]),
    ],
    node: [
      node('Gather', ['embeddings', 'input_ids'], ['gathered']),
      node(
        'Cast',
        ['attention_mask'],
        ['mask_float'],
        [intAttr('to', onnx.TensorProto.DataType.FLOAT)],
      ),
      node('Unsqueeze', ['mask_float', 'unsqueeze_axes'], ['mask_3d']),
      node('Mul', ['gathered', 'mask_3d'], ['last_hidden_state']),
    ],
    input: [int64Input('input_ids'), int64Input('attention_mask')],
    output: [floatOutput('last_hidden_state', ['batch', 'sequence', dims])],
  });
  writeModelDir(dir, vocab, graph, {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dims,
    vocab_size: vocab.length,
  });
  return dir;
}

export interface TinyRerankerOptions {
  words: readonly string[];
  /** Relevance contributed by each occurrence of a word in the (query, document) pair. Default 0. */
  scoreOf: (word: string) => number;
}

/**
 * Writes a sequence-classification ("cross-encoder") model directory: `logits[b, 0]` is the sum over the
 * unmasked tokens of the pair of `scoreOf(token)`, so tests can predict its ranking exactly.
 */
export function writeTinyReranker(dir: string, options: TinyRerankerOptions): string {
  const vocab = [...SPECIAL, ...options.words];
  const scores = vocab.map((token) =>
    (SPECIAL as readonly string[]).includes(token) ? 0 : options.scoreOf(token),
  );
  const graph = onnx.GraphProto.create({
    name: 'tiny-reranker',
    initializer: [
      floatTensor('token_scores', [vocab.length, 1], scores),
      int64Tensor('unsqueeze_axes', [1], [-1]),
      int64Tensor('sum_axes', [1], [1]),
    ],
    node: [
      node('Gather', ['token_scores', 'input_ids'], ['gathered']),
      node(
        'Cast',
        ['attention_mask'],
        ['mask_float'],
        [intAttr('to', onnx.TensorProto.DataType.FLOAT)],
      ),
      node('Unsqueeze', ['mask_float', 'unsqueeze_axes'], ['mask_3d']),
      node('Mul', ['gathered', 'mask_3d'], ['masked']),
      node('ReduceSum', ['masked', 'sum_axes'], ['logits'], [intAttr('keepdims', 0)]),
    ],
    input: [int64Input('input_ids'), int64Input('attention_mask')],
    output: [floatOutput('logits', ['batch', 1])],
  });
  writeModelDir(dir, vocab, graph, {
    model_type: 'bert',
    architectures: ['BertForSequenceClassification'],
    hidden_size: 1,
    vocab_size: vocab.length,
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
  });
  return dir;
}

function writeModelDir(
  dir: string,
  vocab: readonly string[],
  graph: InstanceType<typeof onnx.GraphProto>,
  config: Record<string, unknown>,
): void {
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'mnemo-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), onnx.ModelProto.encode(model).finish());
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizer(vocab), null, 2));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
}

function wordPieceTokenizer(vocab: readonly string[]): Record<string, unknown> {
  const ids = Object.fromEntries(vocab.map((token, index) => [token, index]));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [
          token,
          { id: token, ids: [ids[token]], tokens: [token] },
        ]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

/** A deterministic vector in [-1, 1]^dims from a small LCG seeded by `seed`. */
export function pseudoRandomVector(seed: number, dims: number): number[] {
  let state = (seed * 2654435761 + 12345) >>> 0;
  return Array.from({ length: dims }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x80000000 - 1;
  });
}

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: InstanceType<typeof onnx.AttributeProto>[] = [],
): InstanceType<typeof onnx.NodeProto> {
  return onnx.NodeProto.create({ opType, input, output, attribute, name: output[0] });
}

function intAttr(name: string, value: number): InstanceType<typeof onnx.AttributeProto> {
  return onnx.AttributeProto.create({
    name,
    type: onnx.AttributeProto.AttributeType.INT,
    i: value,
  });
}

function floatTensor(
  name: string,
  dims: number[],
  values: number[],
): InstanceType<typeof onnx.TensorProto> {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    floatData: values,
  });
}

function int64Tensor(
  name: string,
  dims: number[],
  values: number[],
): InstanceType<typeof onnx.TensorProto> {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.INT64,
    int64Data: values,
  });
}

function int64Input(name: string): InstanceType<typeof onnx.ValueInfoProto> {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.INT64,
        shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }] },
      },
    },
  });
}

function floatOutput(
  name: string,
  shape: (string | number)[],
): InstanceType<typeof onnx.ValueInfoProto> {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: {
          dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
        },
      },
    },
  });
}
