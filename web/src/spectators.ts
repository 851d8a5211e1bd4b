// The spectators' page (GET /): every board of the event from the public,
// delayed copy the daemon serves (api/public/events), one board large with
// its move list and PGN, the others in a grid.

import { BoardCard } from './card';
import { attr, el, getJSON, moveNumber, text } from './dom';
import { lang, languageSwitch, onLang, t } from './i18n';
import { shownMove } from './spoken';
import { Ear } from './ear';
import { xiangqiStyleSwitch } from './xqstyle';
import type { BoardData, GameHistory, Ply, Snapshot } from './types';

const cards = new Map<string, BoardCard>(); // by board number
const grid = document.getElementById('grid')!;
const status = document.getElementById('connection')!;
const title = document.getElementById('event')!;

// Boards are drawn when they come into view: a grid of hundreds stays light.
const seen = new IntersectionObserver(
  entries => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const c = cards.get((e.target as HTMLElement).dataset.board ?? '');
      c?.diagram.draw();
      seen.unobserve(e.target);
    }
  },
  { rootMargin: '200px' },
);

function upsert(d: BoardData): void {
  const k = String(d.board);
  let c = cards.get(k);
  if (c && c.data.variant !== d.variant) {
    c.el.remove();
    c = undefined;
  }
  if (!c) {
    c = new BoardCard(d, { view: 'grid' });
    c.el.dataset.board = k;
    c.el.tabIndex = 0;
    c.el.addEventListener('click', () => focusGame(k, true));
    c.el.addEventListener('keydown', e => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      focusGame(k, true);
      // From the keyboard: on to the commands of the game now followed.
      document.getElementById('command')!.focus({ preventScroll: true });
    });
    cards.set(k, c);
    placeCard(c);
    seen.observe(c.el);
  } else {
    c.update(d);
  }
  cardLabel(c);
  if (focus.board === k) focus.update(d);
  if (focus.partnerOf(d.game)) focus.partnerUpdate(d);
}

/** A grid card's accessible name: the board, its players, what Enter does. */
function cardLabel(c: BoardCard): void {
  const d = c.data;
  attr(c.el, 'aria-label', t('card.follow', { n: d.board, white: d.white || t(d.variant === 'xiangqi' ? 'side.red' : 'side.white'), black: d.black || t('side.black') }));
}

function placeCard(c: BoardCard): void {
  const after = [...grid.children].find(n => Number((n as HTMLElement).dataset.board) > c.data.board);
  grid.insertBefore(c.el, after ?? null);
}

/** The large board: the position browsed to, the move list, the PGN. */
class Focus {
  board = '';
  private card?: BoardCard;
  private partner?: BoardCard;
  private plies: Ply[] = [];
  private startFEN = '';
  private index = -1; // -1: the start position
  private follow = true;
  private revision = -1;
  private loading = 0;
  private readonly holder = document.getElementById('focus-board')!;
  private readonly side = document.getElementById('focus-partner')!;
  private readonly list = document.getElementById('moves')!;
  private readonly pgn = document.getElementById('pgn') as HTMLAnchorElement;
  private readonly where = document.getElementById('where')!;

  constructor() {
    const nav: [string, () => void][] = [
      ['first', () => this.go(-1)],
      ['prev', () => this.go(this.index - 1)],
      ['next', () => this.go(this.index + 1)],
      ['live', () => this.go(this.plies.length - 1)],
    ];
    for (const [id, fn] of nav) document.getElementById(id)!.addEventListener('click', fn);
    document.addEventListener('keydown', e => {
      if (!this.card || (e.target as HTMLElement).closest('input,textarea,select')) return;
      if (e.key === 'ArrowLeft') this.go(this.index - 1);
      else if (e.key === 'ArrowRight') this.go(this.index + 1);
      else if (e.key === 'Home') this.go(-1);
      else if (e.key === 'End') this.go(this.plies.length - 1);
      else return;
      e.preventDefault();
    });
    this.list.addEventListener('click', e => {
      const ply = (e.target as HTMLElement).closest('[data-ply]')?.getAttribute('data-ply');
      if (ply) this.go(Number(ply) - 1);
    });
  }

  set(k: string): void {
    const c = cards.get(k);
    if (!c) return;
    this.board = k;
    this.card?.diagram.destroy();
    this.card = new BoardCard(c.data, { view: 'focus', coordinates: true });
    this.holder.replaceChildren(this.card.el);
    this.card.diagram.draw();
    this.plies = [];
    this.list.replaceChildren();
    this.index = -1;
    this.follow = true;
    this.revision = -1;
    this.setPartner(c.data);
    ear.follow(this.card, () => this.plies);
    void this.load();
  }

  partnerOf(game: string): boolean {
    return !!this.partner && this.partner.data.game === game;
  }

  partnerUpdate(d: BoardData): void {
    this.partner?.update(d);
  }

  private setPartner(d: BoardData): void {
    this.partner?.diagram.destroy();
    this.partner = undefined;
    this.side.replaceChildren();
    if (!d.partner) return;
    const p = [...cards.values()].find(c => c.data.game === d.partner);
    if (!p) return;
    this.partner = new BoardCard(p.data, { view: 'partner' });
    this.side.replaceChildren(this.partner.el);
    this.partner.diagram.draw();
  }

  update(d: BoardData): void {
    if (!this.card) return;
    ear.update(d);
    const was = this.card.data;
    this.card.update(d);
    if (was.game !== d.game || d.revision !== this.revision) {
      if (was.game !== d.game) this.setPartner(d);
      void this.load();
      return;
    }
    if (d.last && d.ply === this.plies.length + 1) {
      this.plies.push({ ply: d.ply, san: d.last.san, uci: d.last.uci, fen: d.fen, notation: d.last.notation, pockets: d.pockets });
      this.renderList();
    } else if (d.ply !== this.plies.length) {
      void this.load();
      return;
    }
    if (this.follow) this.index = this.plies.length - 1;
    this.showIndex();
  }

  relabel(): void {
    this.card?.relabel();
    this.partner?.relabel();
    ear.relabel();
    this.renderList();
    this.showIndex();
  }

  tick(): void {
    this.card?.tick();
    this.partner?.tick();
    ear.tick();
  }

  private async load(): Promise<void> {
    const c = this.card;
    if (!c) return;
    const n = ++this.loading;
    try {
      const h = await getJSON<GameHistory>(`api/public/game/${encodeURIComponent(c.data.game)}.json`);
      if (n !== this.loading || this.card !== c) return;
      this.plies = h.plies;
      this.startFEN = h.start_fen;
      this.revision = h.board.revision;
      c.update(h.board);
      if (this.follow || this.index >= this.plies.length) this.index = this.plies.length - 1;
      this.renderList();
      this.showIndex();
    } catch (err) {
      if (n === this.loading) text(this.where, t('spec.list.failed', { err: String(err) }));
    }
    const d = c.data;
    this.pgn.href = `pgn/${d.game.split('.')[0]}/${d.round}/${d.board}.pgn`;
    this.pgn.download = `${d.game}.pgn`;
  }

  private go(i: number): void {
    if (!this.card || this.revision < 0) return; // the move list is loading
    this.index = Math.max(-1, Math.min(this.plies.length - 1, i));
    this.follow = this.index === this.plies.length - 1;
    this.showIndex();
  }

  private showIndex(): void {
    const c = this.card;
    if (!c) return;
    const n = this.plies.length;
    if (this.index === n - 1) {
      c.show(c.data.fen, c.data.last?.uci, c.data.pockets);
    } else if (this.index < 0) {
      c.show(this.startFEN || c.data.fen, undefined, c.data.pockets ? { white: '', black: '' } : undefined);
    } else {
      const p = this.plies[this.index];
      c.show(p.fen, p.uci, p.pockets);
    }
    attr(c.el, 'data-ply', String(this.index + 1));
    for (const m of this.list.querySelectorAll('.current')) m.classList.remove('current');
    const cur = this.list.querySelector(`[data-ply="${this.index + 1}"]`);
    cur?.classList.add('current');
    cur?.scrollIntoView({ block: 'nearest' });
    text(this.where, this.index === n - 1 ? (n ? t('spec.where.live') : t('spec.where.start')) : this.index < 0 ? t('spec.where.atstart', { n: n - this.index - 1 }) : t('spec.where.after', { move: moveNumber(this.index + 1), n: n - this.index - 1 }));
  }

  private renderList(): void {
    const out: Node[] = [];
    for (const p of this.plies) {
      if (p.ply % 2 === 1 || out.length === 0) out.push(el('span', { class: 'num' }, moveNumber(p.ply)));
      const label = shownMove(this.card?.data.variant ?? 'chess', lang, p.san, p.uci, p.notation);
      out.push(el('button', { type: 'button', class: 'ply', 'data-ply': String(p.ply) }, label));
    }
    this.list.replaceChildren(...out);
  }
}

const ear = new Ear();
const focus = new Focus();

function focusGame(k: string, scroll: boolean): void {
  focus.set(k);
  history.replaceState(null, '', '#board=' + k);
  if (scroll) document.getElementById('focus')!.scrollIntoView({ block: 'start' });
}

let eventName = '';

function showTitle(): void {
  if (!eventName) return;
  title.removeAttribute('data-i18n');
  document.querySelector('title')?.removeAttribute('data-i18n');
  text(title, eventName);
  document.title = eventName + ' · ' + t('spec.title');
}

function applySnapshot(s: Snapshot): void {
  eventName = s.event.name || s.event.id;
  showTitle();
  text(document.getElementById('site')!, s.event.site);
  const keep = new Set(s.boards.map(b => String(b.board)));
  for (const [k, c] of cards) {
    if (!keep.has(k)) {
      c.el.remove();
      cards.delete(k);
    }
  }
  for (const b of s.boards) upsert(b);
  if (!focus.board || !cards.has(focus.board)) {
    const want = /board=(\d+)/.exec(location.hash)?.[1];
    const first = want && cards.has(want) ? want : s.boards[0] ? String(s.boards[0].board) : '';
    if (first) focusGame(first, false);
  }
}

function connect(): void {
  const es = new EventSource('api/public/events');
  es.addEventListener('snapshot', e => {
    attr(status, 'data-connection', 'live');
    text(status, t('conn.live'));
    applySnapshot(JSON.parse((e as MessageEvent<string>).data) as Snapshot);
  });
  es.addEventListener('board', e => upsert(JSON.parse((e as MessageEvent<string>).data) as BoardData));
  es.addEventListener('error', () => {
    attr(status, 'data-connection', 'reconnecting');
    text(status, t('conn.reconnecting'));
  });
}

// Density of the grid: the projector shows many small boards, a phone one column.
for (const b of document.querySelectorAll<HTMLButtonElement>('[data-density]')) {
  b.addEventListener('click', () => {
    attr(grid, 'data-density', b.dataset.density ?? 'm');
    localStorage.setItem('density', b.dataset.density ?? 'm');
  });
}
attr(grid, 'data-density', localStorage.getItem('density') ?? 'm');

setInterval(() => {
  for (const c of cards.values()) c.tick();
  focus.tick();
}, 250);

languageSwitch();
xiangqiStyleSwitch();
onLang(() => {
  for (const c of cards.values()) {
    c.relabel();
    cardLabel(c);
  }
  focus.relabel();
  showTitle();
  const st = status.dataset.connection ?? 'connecting';
  text(status, t(st === 'live' ? 'conn.live' : st === 'reconnecting' ? 'conn.reconnecting' : 'conn.connecting'));
});
connect();
