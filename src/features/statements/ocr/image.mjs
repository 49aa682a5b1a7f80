// Page images for the OCR (../ocr.mjs): a PDF page's largest image as pdf.js decodes it and places
// it, turned upright and made grey; a PNG or JPEG's size and its one-page PDF; images as PGM files
// for tesseract.

const mul = (m, n) => [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];

/**
 * The page's largest image, grey, with the matrix that maps its unit square to the upright page
 * (viewport × CTM), or null when the page paints no image.
 */
export async function pageImage(page, OPS) {
  const ops = await page.getOperatorList();
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack = [];
  let best = null;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = mul(ctm, args);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) && args[0].length === 6) ctm = mul(ctm, args[0]);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      const area = Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
      if (!best || area > best.area) best = { area, ctm, ref: fn === OPS.paintImageXObject ? args[0] : args[0] };
    }
  }
  if (!best) return null;
  const img = typeof best.ref === 'string' ? await new Promise((resolve) => (best.ref.startsWith('g_') ? page.commonObjs : page.objs).get(best.ref, resolve)) : best.ref;
  if (!img || !img.width || !img.height || !img.data) return null;
  const viewport = page.getViewport({ scale: 1 });
  return { gray: toGray(img), w: img.width, h: img.height, m: mul(viewport.transform, best.ctm), pageW: viewport.width, pageH: viewport.height };
}

/** pdf.js image data (1-bit, RGB or RGBA) as 8-bit grey. */
function toGray(img) {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  if (img.kind === 1 || data.length === Math.ceil(w / 8) * h) {
    const stride = Math.ceil(w / 8);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = data[y * stride + (x >> 3)] & (128 >> (x & 7)) ? 255 : 0;
    return out;
  }
  const ch = data.length / (w * h);
  if (ch === 1) return Uint8Array.from(data);
  for (let i = 0, j = 0; i < out.length; i++, j += ch) out[i] = (data[j] * 299 + data[j + 1] * 587 + data[j + 2] * 114) / 1000;
  if (ch === 4) for (let i = 0, j = 3; i < out.length; i++, j += 4) if (data[j] < 128) out[i] = 255; // transparent: paper
  return out;
}

/**
 * The image turned so that its rows run left to right down the upright page (a page rotated by its
 * /Rotate or an image placed sideways), with the page box it covers: { gray, w, h, box }.
 */
export function upright({ gray, w, h, m }) {
  // Unit square: image x runs along (m0, m1); image rows run down along (-m2, -m3) (PDF images are
  // painted top row at t = 1).
  const ax = Math.abs(m[0]) >= Math.abs(m[1]) ? { axis: 'x', sign: Math.sign(m[0]) } : { axis: 'y', sign: Math.sign(m[1]) };
  const dy = Math.abs(m[3]) >= Math.abs(m[2]) ? { axis: 'y', sign: -Math.sign(m[3]) } : { axis: 'x', sign: -Math.sign(m[2]) };
  const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([s, t]) => [m[0] * s + m[2] * t + m[4], m[1] * s + m[3] * t + m[5]]);
  const box = { x0: Math.min(...corners.map((c) => c[0])), y0: Math.min(...corners.map((c) => c[1])), x1: Math.max(...corners.map((c) => c[0])), y1: Math.max(...corners.map((c) => c[1])) };
  if (ax.axis === 'x' && ax.sign > 0 && dy.axis === 'y' && dy.sign > 0) return { gray, w, h, box };
  // Output pixel (X, Y) in the upright frame from source (x, y).
  const swap = ax.axis === 'y';
  const W = swap ? h : w;
  const H = swap ? w : h;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let X;
      let Y;
      if (!swap) {
        X = ax.sign > 0 ? x : w - 1 - x;
        Y = dy.sign > 0 ? y : h - 1 - y;
      } else {
        // image x runs along page y, image rows along page x
        Y = ax.sign > 0 ? x : w - 1 - x;
        X = dy.sign > 0 ? y : h - 1 - y;
      }
      out[Y * W + X] = gray[y * w + x];
    }
  }
  return { gray: out, w: W, h: H, box };
}

/** A grey image as a PGM file. */
export function pgmGray(gray, w, h) {
  return Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`, 'latin1'), Buffer.from(gray.buffer, gray.byteOffset, gray.byteLength)]);
}

/** A binary image as a PGM file (tesseract's image reader takes PNM). */
export function pgm(ink, w, h) {
  const head = Buffer.from(`P5\n${w} ${h}\n255\n`, 'latin1');
  const body = Buffer.allocUnsafe(w * h);
  for (let i = 0; i < ink.length; i++) body[i] = ink[i] ? 0 : 255;
  return Buffer.concat([head, body]);
}

/** The pixel size of a PNG or JPEG from its header, or null. */
export function imageSize(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') return { type: 'png', w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { type: 'jpeg', h: b.readUInt16BE(i + 5), w: b.readUInt16BE(i + 7) };
      i += 2 + len;
    }
  }
  return null;
}

/** A PNG or JPEG as a one-page PDF: a Letter-width page (landscape when the image is) covered by it. */
export async function imagePdf(bytes, type) {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  // A copy of its own: pdf-lib reads the bytes through their ArrayBuffer from offset 0.
  const own = new Uint8Array(bytes);
  const img = type === 'png' ? await doc.embedPng(own) : await doc.embedJpg(own);
  const pw = img.width > img.height ? 792 : 612;
  const ph = (pw * img.height) / img.width;
  const page = doc.addPage([pw, ph]);
  page.drawImage(img, { x: 0, y: 0, width: pw, height: ph });
  return doc.save({ useObjectStreams: false });
}
