/**
 * Shrinking decoded RGBA pixels, in plain TypeScript (no native code: it runs the same inside
 * the compiled binary on x64 and arm64). Images are only ever made smaller, never enlarged.
 *
 * The filter is an area average (each output pixel is the coverage-weighted mean of the source
 * pixels under it): for the large reductions uploads need (a 4000 px photo to a 256 px avatar)
 * it is as sharp as anything fancier, never aliases, and costs one pass over the source. Colour
 * is averaged premultiplied by alpha so transparent pixels do not darken the edges of a logo.
 */

export interface Pixels {
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
}

export type ResizeRule =
  /** Crop to the box's aspect ratio around the centre, then shrink to at most width × height. */
  | { fit: "cover"; width: number; height: number }
  /** Keep the whole picture and its aspect ratio; shrink until it fits in the box. */
  | { fit: "inside"; width: number; height: number };

/** The crop (in source pixels, fractional) and the output size a rule gives for a source size. */
export function plan(srcW: number, srcH: number, rule: ResizeRule) {
  let cropX = 0;
  let cropY = 0;
  let cropW = srcW;
  let cropH = srcH;
  if (rule.fit === "cover") {
    const target = rule.width / rule.height;
    if (srcW / srcH > target) {
      cropW = srcH * target;
      cropX = (srcW - cropW) / 2;
    } else {
      cropH = srcW / target;
      cropY = (srcH - cropH) / 2;
    }
  }
  const k = Math.min(1, rule.width / cropW, rule.height / cropH);
  const outW = Math.max(1, Math.min(rule.width, Math.round(cropW * k)));
  const outH = Math.max(1, Math.min(rule.height, Math.round(cropH * k)));
  return { cropX, cropY, cropW, cropH, outW, outH };
}

export function resize(src: Pixels, rule: ResizeRule): Pixels {
  const p = plan(src.width, src.height, rule);
  if (p.outW === src.width && p.outH === src.height) return src;
  const xs = weights(p.cropX, p.cropW, p.outW, src.width);
  const ys = weights(p.cropY, p.cropH, p.outH, src.height);
  const firstRow = ys.start[0]!;
  const lastRow = ys.start[p.outH - 1]! + ys.count[p.outH - 1]!;
  const rows = lastRow - firstRow;

  // Pass 1: each needed source row → outW premultiplied RGBA floats.
  const mid = new Float32Array(rows * p.outW * 4);
  const s = src.data;
  for (let r = 0; r < rows; r++) {
    const rowBase = (firstRow + r) * src.width * 4;
    const midBase = r * p.outW * 4;
    for (let x = 0; x < p.outW; x++) {
      let rr = 0,
        gg = 0,
        bb = 0,
        aa = 0;
      const start = xs.start[x]!;
      const count = xs.count[x]!;
      const wBase = xs.offset[x]!;
      for (let k = 0; k < count; k++) {
        const w = xs.weight[wBase + k]!;
        const i = rowBase + (start + k) * 4;
        const a = s[i + 3]! * w;
        rr += s[i]! * a;
        gg += s[i + 1]! * a;
        bb += s[i + 2]! * a;
        aa += a;
      }
      const o = midBase + x * 4;
      mid[o] = rr;
      mid[o + 1] = gg;
      mid[o + 2] = bb;
      mid[o + 3] = aa;
    }
  }

  // Pass 2: columns, then back from premultiplied to straight alpha.
  const out = new Uint8ClampedArray(p.outW * p.outH * 4);
  for (let y = 0; y < p.outH; y++) {
    const start = ys.start[y]! - firstRow;
    const count = ys.count[y]!;
    const wBase = ys.offset[y]!;
    for (let x = 0; x < p.outW; x++) {
      let rr = 0,
        gg = 0,
        bb = 0,
        aa = 0;
      for (let k = 0; k < count; k++) {
        const w = ys.weight[wBase + k]!;
        const i = ((start + k) * p.outW + x) * 4;
        rr += mid[i]! * w;
        gg += mid[i + 1]! * w;
        bb += mid[i + 2]! * w;
        aa += mid[i + 3]! * w;
      }
      const o = (y * p.outW + x) * 4;
      if (aa > 0) {
        out[o] = rr / aa;
        out[o + 1] = gg / aa;
        out[o + 2] = bb / aa;
        out[o + 3] = aa;
      }
    }
  }
  return { data: out, width: p.outW, height: p.outH };
}

/**
 * For each of `outLen` output pixels along one axis: the first source pixel it covers, how
 * many, and the share of each (summing to 1). The span [from, from + len) may start and end
 * mid-pixel (a centred crop); `limit` is the source's size along the axis.
 */
function weights(from: number, len: number, outLen: number, limit: number) {
  const scale = len / outLen;
  const start = new Int32Array(outLen);
  const count = new Int32Array(outLen);
  const offset = new Int32Array(outLen);
  const all: number[] = [];
  for (let i = 0; i < outLen; i++) {
    const a = from + i * scale;
    const b = Math.min(limit, from + (i + 1) * scale);
    const first = Math.max(0, Math.floor(a));
    const last = Math.min(limit - 1, Math.ceil(b) - 1);
    start[i] = first;
    count[i] = last - first + 1;
    offset[i] = all.length;
    let sum = 0;
    const ws: number[] = [];
    for (let j = first; j <= last; j++) {
      const w = Math.max(0, Math.min(b, j + 1) - Math.max(a, j));
      ws.push(w);
      sum += w;
    }
    for (const w of ws) all.push(sum > 0 ? w / sum : 1 / ws.length);
  }
  return { start, count, offset, weight: Float32Array.from(all) };
}
