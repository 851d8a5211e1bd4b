// Builds dist/ (embedded in the daemon by web.go) from src/ and the locked
// npm dependencies: the two page scripts, one stylesheet, the two HTML pages
// and assets/licenses.txt (the licence of every bundled package). The output
// depends only on the sources and node_modules (no dates, no absolute
// paths), so CI can rebuild it and compare with the committed copy.
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync, rmSync, mkdirSync, copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const out = 'dist';
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

// chessgroundx ships the cburnett piece set for chessground's class names
// (pawn, knight…); its own pieces are classed p-piece, n-piece…
const roles = { pawn: 'p-piece', knight: 'n-piece', bishop: 'b-piece', rook: 'r-piece', queen: 'q-piece', king: 'k-piece' };
const piecesPlugin = {
  name: 'pieces',
  setup(build) {
    build.onResolve({ filter: /^virtual:pieces\.css$/ }, () => ({ path: 'pieces.css', namespace: 'pieces' }));
    build.onLoad({ filter: /.*/, namespace: 'pieces' }, () => {
      let css = readFileSync('node_modules/chessgroundx/assets/chessground.cburnett.css', 'utf8');
      for (const [from, to] of Object.entries(roles)) css = css.replaceAll(`piece.${from}.`, `piece.${to}.`);
      css = css.replace(/\.cg-wrap (piece\.[a-z-]+\.(?:white|black))/g, '.diagram.chess .cg-wrap $1, .diagram.chess .pocket $1');
      return { contents: css, loader: 'css' };
    });
  },
};

await esbuild.build({
  entryPoints: { spectators: 'src/spectators.ts', arbiter: 'src/arbiter.ts', hall: 'src/hall.ts', app: 'src/style.css' },
  outdir: join(out, 'assets'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none', // the licences are in assets/licenses.txt
  charset: 'utf8',
  logLevel: 'warning',
  plugins: [piecesPlugin],
  external: ['*.woff'], // the xiangqi font, copied below beside app.css
});

for (const page of ['index.html', 'arbiter.html', 'hall.html']) if (existsSync(page)) copyFileSync(page, join(out, page));
// The xiangqi pieces' font (fonts/make-xiangqi-font.py) and its licence.
copyFileSync('fonts/xiangqi.woff', join(out, 'assets', 'xiangqi.woff'));
copyFileSync('fonts/OFL.txt', join(out, 'assets', 'xiangqi-font-license.txt'));

// The licences of the packages in the bundle (dependencies, not the build tools).
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let notice =
  'dgtbridge web pages. Copyright the dgtbridge authors. GPL-3.0-or-later (see LICENSE in the\n' +
  'source repository). The pages bundle the following npm packages, under these licences:\n';
for (const [path, p] of Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b))) {
  if (!path.startsWith('node_modules/') || p.dev) continue;
  const name = path.slice('node_modules/'.length);
  notice += `\n==== ${name} ${p.version} (${p.license})\n\n`;
  for (const f of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'COPYING']) {
    const lf = join(path, f);
    if (existsSync(lf)) {
      notice += readFileSync(lf, 'utf8').trim() + '\n';
      break;
    }
  }
}
writeFileSync(join(out, 'assets', 'licenses.txt'), notice);
