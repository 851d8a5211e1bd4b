// The organisers' hall page (GET /hall): every board of the event as a
// tile in the configuration's order (data-board, data-health =
// ok|disconnected|stale|alert), live over NATS like the arbiters' page
// (board statuses, the live games, and for arbiters the alerts), the NATS
// and storage health on top, a board's detail on a click. Signed in as an
// organiser or an arbiter (the same sign-in as /arbiter). Made for
// thousands of boards: a message marks its tile, the marked tiles are
// redrawn once per animation frame.

import { formatClock } from './clock';
import { attr, el, getJSON, text } from './dom';
import { kindName } from './alerts';
import { languageSwitch, onLang, t, type Key } from './i18n';
import { forgetStored, fromAddress, fromForm, readyForm, signOut } from './signin';
import { closing, connectStaff, lastMsg, recentAlerts, showError, setConn } from './staff';
import type { Alert, BoardStatus, ClockEvent, GameState, MoveEvent, PageConfig, Result } from './types';
import type { NatsConnection } from '@nats-io/nats-core';
import { boardTools } from './boardtools';
import type { Sender } from './commands';

export type Health = 'ok' | 'disconnected' | 'stale' | 'alert';

/** How long a game in play may go unheard before its tile says stale
 * (?stale=<minutes> in the address; default 10 minutes). */
const staleMS = (Number(new URLSearchParams(location.search).get('stale')) || 10) * 60_000;

interface Tile {
  el: HTMLButtonElement;
  game: string;
  board: number;
  boardID?: string;
  variant: string;
  white: string;
  black: string;
  plies: number;
  result: string;
  playing: boolean;
  clock?: { white_ms: number; black_ms: number };
  status?: BoardStatus;
  heard: number; // Date.now() of the last message about it, 0: none
  alerts: Map<string, Alert>;
  health?: Health;
}

const tiles = new Map<string, Tile>(); // by game
const byBoardID = new Map<string, Tile>();
const byNumber = new Map<number, Tile>();
const dirty = new Set<Tile>();
let frame = 0;
let selected: Tile | undefined;
let arbiter = false;
let eventName = '';
let who = '';
let nc: NatsConnection | undefined;
let sender: Sender | undefined; // arbiters: the commands' connection

const form = document.getElementById('signin') as HTMLFormElement;
const grid = document.getElementById('tiles')!;
const detail = document.getElementById('detail')!;

/** The tile's health: disconnected, then an open alert, then stale. */
export function health(x: Tile, now: number): Health {
  if (x.status && !x.status.connected) return 'disconnected';
  for (const a of x.alerts.values()) if (a.severity === 'crit' || a.severity === 'warn') return 'alert';
  const seen = Math.max(x.heard, x.status?.last_seen ? Date.parse(x.status.last_seen) : 0, x.status?.at ? Date.parse(x.status.at) : 0);
  if (!x.status && !x.heard) return 'stale';
  if (x.playing && now - seen > staleMS) return 'stale';
  return 'ok';
}

const marks: Record<Health, string> = { ok: '', disconnected: '×', stale: '…', alert: '!' };

function mark(x: Tile): void {
  dirty.add(x);
  if (!frame) frame = requestAnimationFrame(flush);
}

function tileLabel(x: Tile, h: Health): string {
  const p = { n: x.board, health: t(`health.${h}`), ply: x.plies, alerts: x.alerts.size };
  return x.alerts.size ? t('hall.tile.alerts', p) : t('hall.tile', p);
}

function flush(): void {
  frame = 0;
  const now = Date.now();
  for (const x of dirty) {
    const h = health(x, now);
    x.health = h;
    attr(x.el, 'data-health', h);
    attr(x.el, 'data-ply', String(x.plies));
    attr(x.el, 'aria-label', tileLabel(x, h));
    // Drawn by the stylesheet (::after): the tile's visible text stays its
    // number, a part of its accessible name.
    attr(x.el, 'data-shown', marks[h] + (x.result || (x.plies ? String(x.plies) : '')));
    if (x === selected) showDetail(x);
  }
  dirty.clear();
  summary();
}

function summary(): void {
  const n: Record<Health, number> = { ok: 0, disconnected: 0, stale: 0, alert: 0 };
  for (const x of tiles.values()) if (x.health) n[x.health]++;
  text(document.getElementById('summary')!, t('hall.summary', n));
}

function row(k: Key, v: string): HTMLElement[] {
  return [el('dt', {}, t(k)), el('dd', {}, v)];
}

function showDetail(x: Tile): void {
  const s = x.status;
  const seen = Math.max(x.heard, s?.last_seen ? Date.parse(s.last_seen) : 0);
  const items: HTMLElement[] = [
    ...row('hall.d.game', x.game),
    ...row('hall.d.players', `${x.white || t('side.white')} – ${x.black || t('side.black')}`),
    ...row('hall.d.health', t(`health.${x.health ?? 'stale'}`)),
    ...row('hall.d.conn', s ? (s.connected ? t('status.connected') : t('status.disconnected') + (s.error ? ': ' + s.error : '')) : t('status.unknown')),
    ...row('hall.d.heard', seen ? new Date(seen).toLocaleTimeString([], { hour12: false }) : t('hall.d.never')),
    ...row('hall.d.ply', String(x.plies)),
    ...row('hall.d.clocks', x.clock ? `${formatClock(x.clock.white_ms)} – ${formatClock(x.clock.black_ms)}` : t('status.noclock')),
    ...row('hall.d.result', x.result || '–'),
    ...row('hall.d.port', s?.port || '–'),
    ...row('hall.d.clock', s?.clock || '–'),
  ];
  const alerts = arbiter
    ? x.alerts.size
      ? el('ul', {}, ...[...x.alerts.values()].map(a => el('li', { 'data-alert-id': a.id, 'data-kind': a.kind }, `${t(`sev.${a.severity}`)} · ${kindName(a.kind)}${a.ply ? ' · ' + t('alert.ply', { ply: a.ply }) : ''}`)))
      : el('p', {}, t('hall.d.noalerts'))
    : el('p', { class: 'note' }, t('hall.d.alerts.organiser'));
  const info = el('div', { class: 'detail-info' }, el('h3', {}, t('hall.d.board', { n: x.board })), el('dl', { 'data-detail-board': String(x.board) }, ...items), el('h4', {}, t('hall.d.alerts')), alerts);
  const old = detail.querySelector('.detail-info');
  if (old) old.replaceWith(info);
  else detail.prepend(info);
}

/** Selects a tile: its detail, and for arbiters the board's commands
 * (made once per selection, so a live update does not clear a form being
 * filled in). */
function select(x: Tile): void {
  selected = x;
  detail.replaceChildren();
  showDetail(x);
  if (sender) detail.append(boardTools(sender, { game: x.game, variant: x.variant }));
  else detail.append(el('p', { class: 'note' }, el('a', { href: 'arbiter' }, t('hall.d.commands'))));
}

function addTile(b: PageConfig['boards'][number], frag: DocumentFragment): void {
  const e = el('button', { type: 'button', class: 'tile', 'data-board': String(b.board), 'data-game': b.game, 'data-health': 'stale' }, String(b.board));
  const x: Tile = { el: e, game: b.game, board: b.board, boardID: b.board_id, variant: b.variant, white: '', black: '', plies: 0, result: '', playing: false, heard: 0, alerts: new Map() };
  tiles.set(b.game, x);
  byNumber.set(b.board, x);
  if (b.board_id) byBoardID.set(b.board_id, x);
  frag.append(e);
  mark(x);
}

function fromGameState(st: GameState): void {
  const x = tiles.get(st.game) ?? byNumber.get(st.board);
  if (!x) return;
  if (x.game !== st.game) {
    // A board's next round takes the tile; an earlier one is ignored.
    if (Number(x.game.split('.')[1]) > st.round) return;
    tiles.delete(x.game);
    x.game = st.game;
    tiles.set(st.game, x);
    x.alerts.clear();
  }
  x.white = st.white;
  x.black = st.black;
  x.plies = st.moves?.length ?? 0;
  x.result = st.result === '*' ? '' : st.result;
  x.playing = st.status === 'playing' || (x.plies > 0 && !x.result);
  if (st.clock) x.clock = st.clock;
}

function addAlert(a: Alert): void {
  if (a.kind === 'arbiter_action') {
    const target = typeof a.proposal?.alert === 'string' ? a.proposal.alert : '';
    for (const x of tiles.values()) {
      if (x.alerts.delete(target)) mark(x);
    }
    return;
  }
  const x = tiles.get(a.game);
  if (!x) return;
  x.alerts.set(a.id, a);
  mark(x);
}

function setStatus(st: BoardStatus): void {
  const x = byBoardID.get(st.board_id);
  if (!x) return;
  if (x.status && Date.parse(x.status.at) > Date.parse(st.at)) return;
  x.status = st;
  mark(x);
}

async function watchHealth(c: NatsConnection): Promise<void> {
  const natsEl = document.getElementById('nats-health')!;
  const storeEl = document.getElementById('storage-health')!;
  const once = async () => {
    try {
      const m = await c.request('$JS.API.INFO', undefined, { timeout: 5000 });
      const info = m.json<{ storage?: number; memory?: number }>();
      attr(natsEl, 'data-health-nats', 'ok');
      text(natsEl, t('hall.nats.js', { used: bytes((info.storage ?? 0) + (info.memory ?? 0)) }));
    } catch {
      attr(natsEl, 'data-health-nats', c.isClosed() ? 'closed' : 'ok');
      text(natsEl, t(c.isClosed() ? 'conn.closed' : 'hall.nats.ok'));
    }
    try {
      const r = await fetch('healthz', { cache: 'no-store' });
      const body = (await r.text()).trim();
      attr(storeEl, 'data-health-storage', r.ok ? 'ok' : 'bad');
      text(storeEl, r.ok ? t('hall.storage.ok') : t('hall.storage.bad', { problems: body }));
    } catch {
      attr(storeEl, 'data-health-storage', 'unknown');
      text(storeEl, t('hall.storage.unknown'));
    }
  };
  await once();
  setInterval(() => void once(), 10_000);
}

function bytes(n: number): string {
  return n >= 1 << 30 ? (n / (1 << 30)).toFixed(1) + ' GB' : n >= 1 << 20 ? (n / (1 << 20)).toFixed(1) + ' MB' : Math.round(n / 1024) + ' kB';
}

function showTitle(): void {
  if (!eventName) return;
  const h = document.getElementById('event')!;
  h.removeAttribute('data-i18n');
  text(h, t('hall.title') + ' · ' + eventName);
}

async function signIn(user: string, password: string): Promise<void> {
  const early: Alert[] = [];
  let ready = false;
  const st = await connectStaff(user, password, 'hall', false, a => (ready ? addAlert(a) : early.push(a)));
  if (!st) return;
  const { nc: c, cfg } = st;
  const P = cfg.prefix;
  // Organiser or arbiter: the boards' statuses. A public user is refused them.
  let denied = '';
  const statusSub = c.subscribe(`${P}.board.*.status`, {
    callback: (err, m) => {
      if (err) {
        denied = String(err.message ?? err);
        return;
      }
      setStatus(m.json<BoardStatus>());
    },
  });
  await c.flush().catch(() => undefined);
  if (denied || statusSub.isClosed()) {
    closing();
    await c.close().catch(() => undefined);
    setConn('signed-out');
    return showError(t('hall.notstaff', { user, err: denied || t('err.denied') }));
  }
  nc = c;
  arbiter = st.arbiter;
  if (arbiter) sender = { nc: c, prefix: P, user };
  eventName = cfg.event.name || cfg.event.id;
  showTitle();
  text(document.getElementById('site')!, cfg.event.site);
  form.hidden = true;
  document.getElementById('workspace')!.hidden = false;
  document.getElementById('signout')!.hidden = false;
  who = user;
  text(document.getElementById('who')!, t('signin.as', { user }));
  performance.mark('hall-signed-in');

  const frag = document.createDocumentFragment();
  for (const b of cfg.boards) addTile(b, frag);
  grid.append(frag);
  requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('hall-painted')));
  ready = true;
  for (const a of early) addAlert(a);

  const heard = (game: string): Tile | undefined => {
    const x = tiles.get(game);
    if (x) {
      x.heard = Date.now();
      mark(x);
    }
    return x;
  };
  c.subscribe(`$KV.${P}_games.>`, {
    callback: (err, m) => {
      if (err) return;
      const gs = m.json<GameState>();
      if (gs.event !== cfg.event.id) return;
      fromGameState(gs);
      heard(gs.game);
    },
  });
  c.subscribe(`${P}.game.*.*.*.*`, {
    callback: (err, m) => {
      if (err) return;
      const parts = m.subject.split('.');
      const kind = parts[parts.length - 1];
      const x = heard(parts.slice(2, 5).join('.'));
      if (!x) return;
      if (kind === 'move') {
        const mv = m.json<MoveEvent>();
        x.plies = mv.ply;
        x.playing = true;
        if (mv.clock) x.clock = mv.clock;
      } else if (kind === 'clock') {
        const ce = m.json<ClockEvent>();
        x.clock = { white_ms: ce.white_ms, black_ms: ce.black_ms };
      } else if (kind === 'end') {
        const r = m.json<Result>();
        x.result = r.result === '*' ? '' : r.result;
        x.playing = !x.result;
      }
    },
  });
  // The healths age: every tile looked at again (within half the stale time).
  setInterval(() => {
    for (const x of tiles.values()) mark(x);
  }, Math.min(15_000, staleMS / 2));
  void watchHealth(c);
  try {
    const m = await c.request(`${P}.api.boards`, undefined, { timeout: 5000 });
    for (const s of m.json<{ boards: BoardStatus[] }>().boards ?? []) setStatus(s);
  } catch {
    // a daemon without the responder: statuses come as they change
  }
  const bucket = `${P}_games`;
  // The games' last states, a few requests at a time (thousands of boards).
  const queue = [...cfg.boards];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let b = queue.shift(); b; b = queue.shift()) {
        const m = await lastMsg(c, `KV_${bucket}`, `$KV.${bucket}.${b.game}`);
        if (!m) continue;
        fromGameState(m.json<GameState>());
        const x = tiles.get(b.game);
        if (x) mark(x);
      }
    }),
  );
  if (arbiter) for (const a of await recentAlerts(c, P)) addAlert(a);
}

grid.addEventListener('click', e => {
  const b = (e.target as HTMLElement).closest<HTMLElement>('[data-board]');
  const x = b ? byNumber.get(Number(b.dataset.board)) : undefined;
  if (!x) return;
  selected = x;
  for (const s of grid.querySelectorAll('[aria-pressed="true"]')) s.setAttribute('aria-pressed', 'false');
  x.el.setAttribute('aria-pressed', 'true');
  select(x);
});

document.getElementById('signout')!.addEventListener('click', () => {
  const c = nc;
  nc = undefined;
  closing();
  signOut(() => c?.close());
});

form.addEventListener('submit', e => {
  e.preventDefault();
  const c = fromForm(form);
  void signIn(c.user, c.password);
});
readyForm(form);

languageSwitch();
onLang(() => {
  showTitle();
  if (who) text(document.getElementById('who')!, t('signin.as', { user: who }));
  for (const x of tiles.values()) mark(x);
  if (selected) select(selected);
  else detail.replaceChildren(el('p', { class: 'note' }, t('hall.detail.none')));
});
forgetStored();
const asked = fromAddress();
if (asked.refused) showError(t('err.query'));
else if (asked.creds) {
  (form.elements.namedItem('user') as HTMLInputElement).value = asked.creds.user;
  void signIn(asked.creds.user, asked.creds.password);
}
