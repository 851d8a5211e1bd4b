// Following one game by ear (the spectators' page): the followed game's
// public moves, results and flags announced in a polite live region
// (#announce, data-announce) in the notation the listener picks, and
// keyboard commands answered in a second one (#answer): the last moves,
// the clocks, the piece on a square, the pieces of a kind, repeat. Nothing
// here moves the keyboard focus.

import type { BoardCard } from './card';
import { formatClock } from './clock';
import { moveNumber, text } from './dom';
import { t } from './i18n';
import { pieceName } from './commands';
import { kindName, moveText, notations, saySquare, type Notation } from './spoken';
import type { BoardData, Ply } from './types';

const STORE = 'dgtbridge.notation'; // the listener's choice: not a secret

/** The pieces of a FEN's placement by square (chess a1…h8, xiangqi ICCS a0…i9). */
export function placement(fen: string, xiangqi: boolean): Map<string, string> {
  const rows = (fen.split(' ')[0] ?? '').replace(/\[.*\]$/, '').replace(/~/g, '').split('/');
  const out = new Map<string, string>();
  const top = xiangqi ? 9 : 8;
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else {
        out.set(String.fromCharCode(97 + f) + String(top - i), ch);
        f++;
      }
    }
  });
  return out;
}

export class Ear {
  private card?: BoardCard;
  private ply = -1;
  private result = '';
  private flagged = new Set<string>();
  private last = '';
  private plies: () => Ply[] = () => [];
  private readonly live = document.getElementById('announce')!;
  private readonly answer = document.getElementById('answer')!;
  private readonly select = document.getElementById('notation') as HTMLSelectElement;
  private readonly input = document.getElementById('command') as HTMLInputElement;

  constructor() {
    this.select.addEventListener('change', () => {
      try {
        localStorage.setItem(STORE, this.select.value);
      } catch {
        // storage disabled: the choice lasts as long as the page
      }
    });
    document.getElementById('command-form')!.addEventListener('submit', e => {
      e.preventDefault();
      this.command(this.input.value);
      this.input.value = '';
    });
    for (const [id, cmd] of [['ask-last', 'l'], ['ask-clocks', 'c'], ['ask-repeat', 'r']]) {
      document.getElementById(id)!.addEventListener('click', () => this.command(cmd));
    }
  }

  private get notation(): Notation {
    return this.select.value as Notation;
  }

  /** Follows the game of card; plies gives its move list (as loaded). */
  follow(card: BoardCard, plies: () => Ply[]): void {
    this.card = card;
    this.plies = plies;
    const d = card.data;
    this.ply = d.ply;
    this.result = d.result;
    this.flagged.clear();
    this.options(d.variant);
    this.say(t('ear.following', { n: d.board, white: d.white || this.side('white'), black: d.black || this.side('black') }));
  }

  /** Redraws the notation choices in the page's language. */
  relabel(): void {
    if (this.card) this.options(this.card.data.variant);
  }

  private options(variant: string): void {
    const list = notations(variant);
    let want = this.select.value;
    try {
      want = want || (localStorage.getItem(STORE) ?? '');
    } catch {
      // storage disabled
    }
    if (!list.includes(want as Notation)) want = list[0];
    this.select.replaceChildren(...list.map(n => new Option(t(`ear.n.${n}`), n, false, n === want)));
    this.select.value = want;
  }

  private side(s: 'white' | 'black'): string {
    return t(s === 'white' ? (this.card?.data.variant === 'xiangqi' ? 'side.red' : 'side.white') : 'side.black');
  }

  private moveWords(ply: number, san: string, uci: string, notation?: string): string {
    const v = this.card?.data.variant ?? 'chess';
    return t('ear.move', { num: moveNumber(ply), side: this.side(ply % 2 === 1 ? 'white' : 'black'), move: moveText(this.notation, v, san, uci, notation) });
  }

  /** Takes the followed game's new state: announces a new move, a result. */
  update(d: BoardData): void {
    if (!this.card || d.game !== this.card.data.game) return;
    if (d.last && d.ply > this.ply && d.last.ply === d.ply) this.say(this.moveWords(d.ply, d.last.san, d.last.uci, d.last.notation));
    this.ply = d.ply;
    if (d.result && d.result !== this.result) {
      const why = d.termination ? kindNameOf(d.termination) : '';
      this.say(why ? t('ear.result.why', { result: d.result, why }) : t('ear.result', { result: d.result }));
    }
    this.result = d.result;
  }

  /** Called a few times a second: announces a flag fall once per side. */
  tick(): void {
    const c = this.card?.clocks();
    if (!c || this.result) return;
    for (const s of ['white', 'black'] as const) {
      if (c[s] <= 0 && !this.flagged.has(s)) {
        this.flagged.add(s);
        this.say(t('ear.flag', { side: this.side(s) }));
      }
    }
  }

  private say(s: string): void {
    this.last = s;
    // A polite live region reads a changed text: the same twice is re-set.
    if (this.live.textContent === s) this.live.textContent = '';
    text(this.live, s);
  }

  private tell(s: string): void {
    if (this.answer.textContent === s) this.answer.textContent = '';
    text(this.answer, s);
  }

  /** Runs a typed command (see ear.help). */
  command(raw: string): void {
    const c = this.card;
    const [cmd, ...args] = raw.trim().split(/\s+/);
    const arg = args.join(' ');
    if (!c) return this.tell(t('ear.nogame'));
    const xq = c.data.variant === 'xiangqi';
    switch ((cmd ?? '').toLowerCase()) {
      case 'l': {
        const n = Math.max(1, Math.min(40, Number(arg) || 4));
        const plies = this.plies();
        if (!plies.length) return this.tell(t('ear.nomoves'));
        return this.tell(t('ear.last', { moves: plies.slice(-n).map(p => this.moveWords(p.ply, p.san, p.uci, p.notation)).join('; ') }));
      }
      case 'c': {
        const k = c.clocks();
        if (!k) return this.tell(t('ear.noclock'));
        return this.tell(t('ear.clocks', { white: this.side('white'), wt: formatClock(k.white), black: this.side('black'), bt: formatClock(k.black) }));
      }
      case 'p': {
        const sq = arg.toLowerCase();
        const ok = xq ? /^[a-i][0-9]$/.test(sq) : /^[a-h][1-8]$/.test(sq);
        const shown = this.notation === 'spoken' && !xq ? saySquare(sq) : sq;
        if (!ok) return this.tell(t('ear.square.bad', { square: arg }));
        const p = placement(c.el.dataset.fen ?? c.data.fen, xq).get(sq);
        return this.tell(p ? t('ear.square', { square: shown, piece: pieceName(p, c.data.variant) }) : t('ear.square.empty', { square: shown }));
      }
      case 'k': {
        const letter = this.kindLetter(arg, xq);
        if (!letter) return this.tell(t('ear.kind.bad', { kind: arg }));
        const pos = placement(c.el.dataset.fen ?? c.data.fen, xq);
        const out: string[] = [];
        for (const l of [letter.toUpperCase(), letter.toLowerCase()]) {
          const sqs = [...pos].filter(([, p]) => p === l).map(([s]) => (this.notation === 'spoken' && !xq ? saySquare(s) : s)).sort();
          const side = pieceName(l, c.data.variant);
          out.push(sqs.length ? t('ear.kind.side', { side, squares: sqs.join(', ') }) : t('ear.kind.none', { side }));
        }
        return this.tell(t('ear.kind', { pieces: out.join('; ') }));
      }
      case 'r':
        return this.tell(this.last || t('ear.nothing'));
    }
    this.tell(t('ear.unknown', { cmd: raw.trim(), help: t('ear.help') }));
  }

  /** A kind named by its FEN letter or its name in the page's language. */
  private kindLetter(arg: string, xq: boolean): string | undefined {
    const a = arg.trim().toLowerCase();
    const letters = xq ? 'kabnrcp' : 'kqrbnp';
    if (a.length === 1 && letters.includes(a)) return a;
    if (!a) return undefined;
    return [...letters].find(l => kindName(l, xq).toLowerCase().startsWith(a));
  }
}

function kindNameOf(termination: string): string {
  const k = 'kind.' + termination;
  return k in kinds ? t(k as 'kind.flag_fall') : '';
}

// The alert kinds double as the names of how a game ended.
const kinds: Record<string, true> = Object.fromEntries(['kind.checkmate', 'kind.stalemate', 'kind.flag_fall', 'kind.both_flags', 'kind.dead_position', 'kind.fivefold', 'kind.seventy_five', 'kind.insufficient_material', 'kind.perpetual', 'kind.illegal_move'].map(k => [k, true]));
