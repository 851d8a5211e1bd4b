// A board card: the players, clocks, diagram, last move and result of one
// game, with the hooks of docs/web.md (data-game, data-fen,
// data-clock, data-result).

import { Diagram } from './diagram';
import { Ticker, formatClock } from './clock';
import { attr, el, moveNumber, text } from './dom';
import { lang, t, type Key } from './i18n';
import { shownMove } from './spoken';
import type { BoardData, Pockets } from './types';

const variantKeys: Record<string, Key> = {
  chess960: 'variant.chess960',
  'team-drop': 'variant.team-drop',
  xiangqi: 'variant.xiangqi',
};

interface Player {
  row: HTMLElement;
  name: HTMLElement;
  fide: HTMLElement;
  clock: HTMLElement;
}

function player(side: 'white' | 'black'): Player {
  const name = el('span', { class: 'name' });
  const fide = el('span', { class: 'fide' });
  const clock = el('span', { class: 'clock', 'data-clock': side });
  const row = el('div', { class: 'player ' + side }, el('span', { class: 'dot ' + side }), name, fide, clock);
  return { row, name, fide, clock };
}

export interface CardOptions {
  /** grid: one of the many; focus: the large board; partner: beside it. */
  view: 'grid' | 'focus' | 'partner';
  coordinates?: boolean;
}

export class BoardCard {
  readonly el: HTMLElement;
  readonly diagram: Diagram;
  data: BoardData;
  private readonly ticker: Ticker;
  private readonly white: Player;
  private readonly black: Player;
  private readonly title: HTMLElement;
  private readonly result: HTMLElement;
  private readonly last: HTMLElement;
  private readonly extra: HTMLElement;

  constructor(data: BoardData, o: CardOptions) {
    this.data = data;
    this.diagram = new Diagram({ variant: data.variant, coordinates: o.coordinates });
    this.ticker = new Ticker(data.clock);
    this.white = player('white');
    this.black = player('black');
    this.title = el('span', { class: 'title' });
    this.result = el('span', { class: 'result', 'data-result': '' });
    this.last = el('div', { class: 'last' });
    this.extra = el('div', { class: 'extra' });
    this.el = el(
      'article',
      { class: 'card card-' + o.view, 'data-view': o.view, 'data-game': data.game, 'data-fen': data.fen },
      el('header', {}, this.title, this.result),
      this.black.row,
      this.diagram.el,
      this.white.row,
      this.last,
      this.extra,
    );
    this.render(data);
  }

  /** Redraws the texts in the page's language. */
  relabel(): void {
    this.render(this.data);
    this.diagram.relabel();
  }

  /** Takes a new state of the board (its position shown unless frozen). */
  update(data: BoardData): void {
    this.data = data;
    this.ticker.update(data.clock);
    this.render(data);
  }

  private render(d: BoardData): void {
    attr(this.el, 'data-game', d.game);
    const v = variantKeys[d.variant];
    text(this.title, t('card.board', { n: d.board }) + (v ? ` · ${t(v)}` : ''));
    const xq = d.variant === 'xiangqi';
    text(this.white.name, d.white || t(xq ? 'side.red' : 'side.white'));
    text(this.black.name, d.black || t('side.black'));
    text(this.white.fide, fideText(d.white_fide_id, d.white_team));
    text(this.black.fide, fideText(d.black_fide_id, d.black_team));
    const res = d.result || '';
    attr(this.result, 'data-result', res);
    text(this.result, res ? res + (d.provisional ? ' ' + t('card.provisional') : '') : d.status === 'waiting' ? t('card.waiting') : '');
    attr(this.el, 'data-status', d.status);
    if (d.last) {
      text(this.last, `${moveNumber(d.last.ply)} ${shownMove(d.variant, lang, d.last.san, d.last.uci, d.last.notation)}`);
    } else {
      text(this.last, '');
    }
    text(this.extra, d.partner ? t('card.partner', { n: d.partner.split('.')[2] }) : '');
    this.show(d.fen, d.last?.uci, d.pockets);
    this.tick();
  }

  /** Shows a position: the live one, or one browsed to. */
  show(fen: string, last?: string, pockets?: Pockets): void {
    attr(this.el, 'data-fen', fen);
    this.diagram.set(fen, last, pockets);
  }

  /** The clocks now (milliseconds per side) and which runs; null without a clock. */
  clocks(): { white: number; black: number; running: 'white' | 'black' | 'none' } | null {
    const c = this.ticker.now();
    return c ? { ...c, running: this.ticker.running } : null;
  }

  /** Redraws the clocks (called a few times a second). */
  tick(): void {
    const t = this.ticker.now();
    const run = this.ticker.running;
    text(this.white.clock, t ? formatClock(t.white) : '');
    text(this.black.clock, t ? formatClock(t.black) : '');
    this.white.clock.classList.toggle('running', !!t && run === 'white');
    this.black.clock.classList.toggle('running', !!t && run === 'black');
    this.white.clock.classList.toggle('flag', !!t && t.white <= 0);
    this.black.clock.classList.toggle('flag', !!t && t.black <= 0);
  }
}

function fideText(id?: string, team?: string): string {
  const parts: string[] = [];
  if (id) parts.push(t('card.fide', { id }));
  if (team) parts.push(team);
  return parts.join(' · ');
}
