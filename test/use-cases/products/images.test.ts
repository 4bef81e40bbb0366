// The hosted image contract the buyer's page renders from (issue 23 §3): file names, srcsets, and
// which names and URLs are hosted images. Pure functions, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostedImageId, imageSet, imageUrl, parseImageFile, variantWidths, IMAGE_WIDTHS } from '../../../src/use-cases/products/images.ts';

const ID = 'AbCdEfGhIjKlMnOpQrStU_';

test('imageSet gives the largest JPEG as src and one srcset per format, relative without a base URL and absolute with one', () => {
  const entry = { id: ID, alt: 'Faja', width: 960, height: 720 };
  assert.deepEqual(imageSet(entry), {
    src: `/img/${ID}-960.jpg`,
    width: 960,
    height: 720,
    srcset: {
      avif: `/img/${ID}-320.avif 320w, /img/${ID}-640.avif 640w, /img/${ID}-960.avif 960w`,
      webp: `/img/${ID}-320.webp 320w, /img/${ID}-640.webp 640w, /img/${ID}-960.webp 960w`,
      jpeg: `/img/${ID}-320.jpg 320w, /img/${ID}-640.jpg 640w, /img/${ID}-960.jpg 960w`,
    },
  });
  const absolute = imageSet(entry, 'https://shop.example.com/');
  assert.equal(absolute?.src, `https://shop.example.com/img/${ID}-960.jpg`);
  assert.ok(absolute?.srcset.avif.startsWith(`https://shop.example.com/img/${ID}-320.avif 320w, `));
});

test('an image stored as an external URL has no imageSet, and its URL is shown as it is', () => {
  const legacy = { url: 'https://cdn.example.com/faja.jpg', alt: 'Faja' };
  assert.equal(imageSet(legacy), undefined);
  assert.equal(imageUrl(legacy, 'https://codrail.example.com'), 'https://cdn.example.com/faja.jpg');
  assert.equal(imageUrl({ id: ID, width: 1280, height: 1280 }, 'https://codrail.example.com'), `https://codrail.example.com/img/${ID}-1280.jpg`);
});

test('an image narrower than the first width has one file at its own width; wider ones every width they reach', () => {
  assert.deepEqual(variantWidths(250), [250]);
  assert.deepEqual(variantWidths(320), [320]);
  assert.deepEqual(variantWidths(960), [320, 640, 960]);
  assert.deepEqual(variantWidths(1280), [...IMAGE_WIDTHS]);
  assert.equal(imageSet({ id: ID, width: 250, height: 100 })?.srcset.webp, `/img/${ID}-250.webp 250w`);
});

test('parseImageFile reads the names files can have and refuses every other name', () => {
  assert.deepEqual(parseImageFile(`${ID}-640.avif`), { id: ID, width: 640, format: 'avif' });
  assert.deepEqual(parseImageFile(`${ID}-1280.jpg`), { id: ID, width: 1280, format: 'jpeg' });
  assert.deepEqual(parseImageFile(`${ID}-250.webp`), { id: ID, width: 250, format: 'webp' });
  for (const name of [`${ID}-640.jpeg`, `${ID}-640.png`, `${ID}-641.jpg`, `${ID}-2560.jpg`, `${ID}-0640.jpg`, `${ID}-64.jpg`, `${ID}.jpg`, `${ID}x-640.jpg`, `${ID.slice(1)}-640.jpg`, `../${ID}-640.jpg`, ''])
    assert.equal(parseImageFile(name), undefined, name);
});

test('hostedImageId recognises a hosted image URL on any host, and nothing else', () => {
  assert.equal(hostedImageId(`https://codrail.example.com/img/${ID}-640.webp`), ID);
  assert.equal(hostedImageId(`http://127.0.0.1:3000/img/${ID}-1280.jpg?v=1`), ID);
  assert.equal(hostedImageId(`https://cdn.example.com/images/${ID}-640.jpg`), undefined);
  assert.equal(hostedImageId(`https://cdn.example.com/img/${ID}-640.gif`), undefined);
  assert.equal(hostedImageId('not a url'), undefined);
});
