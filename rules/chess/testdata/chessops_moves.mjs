// chessops_moves.mjs: the independent oracle of the differential test
// (diff_test.go). It reads lines "RULES<TAB>FEN" on stdin (RULES is
// "chess" or "crazyhouse"; Chess960 positions are "chess" with X-FEN or
// Shredder-FEN castling) and prints, per line, the legal moves as
// space-separated "UCI=SAN" tokens, or "ERROR <text>" when chessops rejects
// the position. UCI castling is king-takes-rook (e1h1) as chessops
// generates it. The test copies this file next to an npm-installed
// chessops and runs it with node.
import { createInterface } from 'node:readline';
import { parseFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { makeSanAndPlay } from 'chessops/san';
import { makeUci } from 'chessops/util';

const roles = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line) continue;
  const [rules, fen] = line.split('\t');
  const setup = parseFen(fen);
  if (setup.isErr) { out.push('ERROR ' + setup.error.message); continue; }
  const pos = setupPosition(rules, setup.value);
  if (pos.isErr) { out.push('ERROR ' + pos.error.message); continue; }
  const p = pos.value;
  const moves = [];
  for (const [from, dests] of p.allDests()) {
    for (const to of dests) {
      const promo = p.board.pawn.has(from) && (to < 8 || to >= 56);
      for (const pr of promo ? ['queen', 'rook', 'bishop', 'knight'] : [undefined]) {
        moves.push(pr ? { from, to, promotion: pr } : { from, to });
      }
    }
  }
  if (p.pockets) {
    for (const role of roles) {
      for (let to = 0; to < 64; to++) {
        const m = { role, to };
        if (p.isLegal(m)) moves.push(m);
      }
    }
  }
  out.push(moves.map((m) => makeUci(m) + '=' + makeSanAndPlay(p.clone(), m)).join(' '));
}
process.stdout.write(out.join('\n') + '\n');
