// A board diagram drawn by chessgroundx (view only): 8×8 chess and
// Chess960, team-drop with both pockets, xiangqi on 9×10.

import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type * as cg from 'chessgroundx/types';
import type { Pockets } from './types';
import { pieceName } from './commands';

const ranks = ['1', '2', '3', '4', '5', '6', '7', '8', '9', ':'];

/** The chessgroundx key of a square in UCI (chess: e4) or ICCS (xiangqi: e0…e9). */
function key(sq: string, xiangqi: boolean): cg.Key | undefined {
  if (!/^[a-i][0-9]$/.test(sq)) return undefined;
  const n = sq.charCodeAt(1) - 48;
  return (sq[0] + (xiangqi ? ranks[n] : String(n))) as cg.Key;
}

/** The last move's squares for highlighting: e2e4, e7e8q, N@f3, -e8, h2e2. */
export function lastMoveKeys(uci: string | undefined, xiangqi: boolean): cg.Orig[] | undefined {
  if (!uci) return undefined;
  const drop = /^([A-Z])@([a-h][1-8])$/.exec(uci);
  if (drop) {
    const to = key(drop[2], false);
    return to ? [(drop[1] + '@') as cg.DropOrig, to] : undefined;
  }
  const removal = /^-([a-h][1-8])$/.exec(uci);
  if (removal) {
    const at = key(removal[1], false);
    return at ? [at] : undefined;
  }
  const from = key(uci.slice(0, 2), xiangqi);
  const to = key(uci.slice(2, 4), xiangqi);
  return from && to ? [from, to] : undefined;
}

/** A FEN as chessgroundx reads it: team-drop pockets from the payload's
 * pockets field, in brackets after the placement. */
export function boardFEN(fen: string, pockets?: Pockets): string {
  let placement = fen.split(' ')[0] ?? '';
  if (pockets) {
    placement = placement.replace(/\[.*\]$/, '') + '[' + pockets.white.toUpperCase() + pockets.black.toLowerCase() + ']';
  }
  return placement;
}

const pocketRoles: cg.Role[] = ['q-piece', 'r-piece', 'b-piece', 'n-piece', 'p-piece'];

export interface DiagramOptions {
  variant: string;
  coordinates?: boolean;
  orientation?: 'white' | 'black';
}

/** Diagram wraps one chessgroundx board in a container element it makes. */
export class Diagram {
  readonly el: HTMLElement;
  private api?: Api;
  private readonly xiangqi: boolean;
  private readonly drops: boolean;
  private top?: HTMLElement;
  private bottom?: HTMLElement;
  private pending?: { fen: string; last?: string; pockets?: Pockets };
  private named?: MutationObserver;

  constructor(private readonly o: DiagramOptions) {
    this.xiangqi = o.variant === 'xiangqi';
    this.drops = o.variant === 'team-drop';
    this.el = document.createElement('div');
    this.el.className = 'diagram ' + (this.xiangqi ? 'xq' : 'chess') + (this.drops ? ' drops' : '');
  }

  /** Draws the board now (the grid calls it when the board scrolls into view). */
  draw(): void {
    if (this.api) return;
    const wrap = document.createElement('div');
    wrap.className = 'cg-wrap';
    if (this.drops) {
      this.top = document.createElement('div');
      this.bottom = document.createElement('div');
      this.el.append(this.top, wrap, this.bottom);
    } else {
      this.el.append(wrap);
    }
    const p = this.pending;
    const cfg: Config = {
      fen: p ? boardFEN(p.fen, p.pockets) : undefined,
      orientation: this.o.orientation ?? 'white',
      viewOnly: true,
      coordinates: this.o.coordinates ?? false,
      animation: { enabled: false },
      drawable: { enabled: false, visible: false },
      disableContextMenu: true,
      lastMove: p ? lastMoveKeys(p.last, this.xiangqi) : undefined,
    };
    if (this.xiangqi) {
      cfg.dimensions = { width: 9, height: 10 };
      cfg.notation = 5; // Notation.XIANGQI_ARBNUM (a const enum in the typings)
    }
    if (this.drops) {
      cfg.pocketRoles = { white: pocketRoles, black: pocketRoles };
    }
    this.api = Chessground(wrap, cfg, this.top, this.bottom);
    if (this.xiangqi) {
      // Each piece an image named in the page's language ("red chariot"):
      // chessgroundx adds, moves and recycles piece elements as it likes.
      this.named = new MutationObserver(() => this.relabel());
      this.named.observe(wrap, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      this.relabel();
    }
  }

  get drawn(): boolean {
    return this.api !== undefined;
  }

  /** Shows a position (FEN), its last move (UCI/ICCS) and pockets. */
  set(fen: string, last?: string, pockets?: Pockets): void {
    if (!pockets && this.drops && !fen.includes('[')) pockets = { white: '', black: '' };
    this.pending = { fen, last, pockets };
    if (!this.api) return;
    this.api.set({ fen: boardFEN(fen, pockets), lastMove: lastMoveKeys(last, this.xiangqi) });
  }

  /** Names the xiangqi pieces again (in the page's language). */
  relabel(): void {
    if (!this.xiangqi) return;
    for (const p of this.el.querySelectorAll<HTMLElement>('cg-board piece')) {
      const role = [...p.classList].find(c => c.endsWith('-piece'));
      if (!role) continue;
      const letter = p.classList.contains('white') ? role[0].toUpperCase() : role[0];
      const name = pieceName(letter, 'xiangqi');
      if (p.getAttribute('aria-label') !== name) {
        p.setAttribute('role', 'img');
        p.setAttribute('aria-label', name);
      }
    }
  }

  destroy(): void {
    this.named?.disconnect();
    this.named = undefined;
    this.api?.destroy();
    this.api = undefined;
    this.el.replaceChildren();
  }
}
