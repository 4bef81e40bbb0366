// The demo product's three photos (issue 23 §3): drawn here as SVG and rasterized to 1280×1280 PNG
// with sharp, so `codrail demo` makes the same images on every machine, with no network, and hosts
// them through the same path as a seller's upload. No text: fonts differ between machines.

const SIZE = 1200;

/** A shapewear garment's outline in a 400×600 box: waist drawn in, hips out. */
const GARMENT = 'M60 40 Q200 8 340 40 L318 150 Q288 262 308 330 Q342 452 352 560 Q200 600 48 560 Q58 452 92 330 Q112 262 82 150 Z';

function garment(x: number, y: number, scale: number, fill: string, shade: string, trim: string): string {
  const hooks = Array.from({ length: 11 }, (_, i) => `<rect x="192" y="${70 + i * 44}" width="16" height="22" rx="5" fill="${trim}"/>`).join('');
  const bones = [118, 158, 242, 282].map((bx) => `<path d="M${bx} ${60} Q${bx + (bx < 200 ? 14 : -14)} 300 ${bx + (bx < 200 ? -8 : 8)} 560" stroke="${shade}" stroke-width="5" fill="none" opacity="0.55"/>`).join('');
  return `<g transform="translate(${x} ${y}) scale(${scale})">
  <ellipse cx="200" cy="590" rx="190" ry="26" fill="#000" opacity="0.12"/>
  <path d="${GARMENT}" fill="${fill}"/>
  <path d="${GARMENT}" fill="url(#sheen)"/>
  ${bones}
  <path d="M60 40 Q200 8 340 40" stroke="${trim}" stroke-width="10" fill="none" stroke-linecap="round"/>
  <path d="M48 560 Q200 600 352 560" stroke="${trim}" stroke-width="10" fill="none" stroke-linecap="round"/>
  <rect x="186" y="52" width="28" height="516" rx="10" fill="${shade}" opacity="0.5"/>
  ${hooks}
</g>`;
}

const defs = (top: string, bottom: string) => `<defs>
  <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
  <linearGradient id="sheen" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.35" stop-color="#fff" stop-opacity="0.28"/><stop offset="0.6" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.18"/></linearGradient>
</defs>`;

/** Drawn on a 1200 grid, rasterized at 1280: the largest width a hosted image has. */
const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="1280" viewBox="0 0 ${SIZE} ${SIZE}">${body}</svg>`;

/** The faja from the front, on the store's green. */
const front = svg(`${defs('#e3f4ec', '#ffffff')}
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
<circle cx="980" cy="210" r="120" fill="#0a7d4f" opacity="0.08"/>
<circle cx="170" cy="1010" r="180" fill="#0a7d4f" opacity="0.06"/>
${garment(330, 190, 1.35, '#d9b49a', '#b48a70', '#8a6550')}`);

/** Its three colours side by side. */
const colours = svg(`${defs('#f7efe6', '#fffaf5')}
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
<rect x="80" y="930" width="1040" height="24" rx="12" fill="#e6d6c6"/>
${garment(70, 330, 0.95, '#2b2b2e', '#111113', '#5a5a60')}
${garment(410, 300, 1.0, '#d9b49a', '#b48a70', '#8a6550')}
${garment(760, 330, 0.95, '#7a5443', '#5b3c2f', '#3d271d')}`);

/** The hook-and-eye closure up close: three rows to adjust the waist. */
function closure(): string {
  const rows = Array.from({ length: 7 }, (_, i) => {
    const y = 150 + i * 135;
    const hooks = [0, 1, 2].map((c) => `<circle cx="${470 + c * 70}" cy="${y + 34}" r="17" fill="none" stroke="#7f8a93" stroke-width="9"/>`).join('');
    return `<rect x="300" y="${y}" width="120" height="68" rx="16" fill="#8a6550"/><path d="M336 ${y + 34} h44" stroke="#c9d2d8" stroke-width="12" stroke-linecap="round"/>${hooks}`;
  }).join('');
  const stitches = Array.from({ length: 24 }, (_, i) => `<rect x="${258}" y="${110 + i * 40}" width="6" height="22" rx="3" fill="#b48a70"/>`).join('');
  return svg(`${defs('#eef3f6', '#ffffff')}
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
<rect x="120" y="80" width="560" height="1040" rx="40" fill="#d9b49a"/>
<rect x="120" y="80" width="560" height="1040" rx="40" fill="url(#sheen)"/>
<rect x="680" y="80" width="400" height="1040" rx="40" fill="#cfa88d"/>
${stitches}${rows}
<path d="M720 180 Q900 600 720 1020" stroke="#0a7d4f" stroke-width="14" fill="none" stroke-dasharray="2 34" stroke-linecap="round"/>`);
}

/** The three demo images as SVG documents, with their alt texts. */
export const DEMO_IMAGES: readonly { alt: string; svg: string }[] = [
  { alt: 'Faja moldeadora color piel, vista frontal', svg: front },
  { alt: 'La faja en negro, piel y café', svg: colours },
  { alt: 'Broches ajustables en tres posiciones', svg: closure() },
];
