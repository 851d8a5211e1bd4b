// The arbiters' page (GET /arbiter): signs in to NATS over websocket as an
// arbiter user, shows the live copy and every alert as it comes, and sends
// the commands of docs/contract.md §3.1.

import type { NatsConnection } from '@nats-io/nats-core';
import { BoardCard } from './card';
import { renderAlert } from './alerts';
import type { Sender } from './commands';
import { boardTools } from './boardtools';
import { attr, el, text } from './dom';
import { languageSwitch, onLang, t } from './i18n';
import { closing, connectStaff, lastMsg, recentAlerts, showError } from './staff';
import { xiangqiStyleSwitch } from './xqstyle';
import { forgetStored, fromAddress, fromForm, readyForm, signOut } from './signin';
import type { Alert, BoardData, BoardStatus, ClockEvent, GameState, MoveEvent, PageConfig, Result } from './types';

const form = document.getElementById('signin') as HTMLFormElement;
const workspace = document.getElementById('workspace')!;
const alertsEl = document.getElementById('alerts')!;
const boardsEl = document.getElementById('boards')!;

let nc: NatsConnection | undefined;

let eventName = '';
let who = '';

function showTitle(): void {
  if (!eventName) return;
  const h = document.getElementById('event')!;
  h.removeAttribute('data-i18n');
  text(h, t('arb.title') + ' · ' + eventName);
}

interface LiveBoard {
  card: BoardCard;
  status: HTMLElement;
  tools: HTMLElement;
  heard: number; // Date.now() of the last message about it
  boardStatus?: BoardStatus;
}

const boards = new Map<string, LiveBoard>(); // by game
// Diagrams are drawn as they scroll into view (a hall of hundreds of boards).
const inView = new IntersectionObserver(
  entries => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      boards.get((e.target as HTMLElement).dataset.game ?? '')?.card.diagram.draw();
      inView.unobserve(e.target);
    }
  },
  { rootMargin: '200px' },
);
const byBoardID = new Map<string, string>(); // board_id → game
const alertEls = new Map<string, HTMLElement>();
const alertData = new Map<string, Alert>();
let current: Sender | undefined; // the signed-in connection

function boardName(game: string): string {
  const b = game.split('.');
  return b.length === 3 ? t('arb.boardname', { round: b[1], board: b[2] }) : game;
}

function emptyBoard(game: string, board: number, variant: string, boardID?: string, fen = ''): BoardData {
  return { game, round: Number(game.split('.')[1]), board, board_id: boardID, white: '', black: '', variant, fen, ply: 0, revision: 0, last: null, clock: null, result: '', status: 'waiting' };
}

function turn(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

function fromState(st: GameState, prev: BoardData | undefined, ageMS: number): BoardData {
  const moves = st.moves ?? [];
  const san = st.san ?? [];
  const n = moves.length;
  const d: BoardData = {
    ...(prev ?? emptyBoard(st.game, st.board, st.variant)),
    game: st.game,
    round: st.round,
    board: st.board,
    white: st.white,
    black: st.black,
    variant: st.variant || 'chess',
    fen: st.fen,
    ply: n,
    revision: st.revision,
    last: n ? { ply: n, san: san[n - 1] ?? '', uci: moves[n - 1], notation: st.notation?.[n - 1] } : null,
    result: st.result === '*' ? '' : st.result,
    status: st.status,
    pockets: st.pockets,
    partner: st.partner,
  };
  if (st.clock && (!prev?.clock || ageMS === 0)) {
    const ended = d.result !== '';
    d.clock = { white_ms: st.clock.white_ms, black_ms: st.clock.black_ms, running: ended ? 'none' : turn(st.fen), age_ms: Math.max(0, ageMS) };
  }
  return d;
}

function statusLine(b: LiveBoard): void {
  const s = b.boardStatus;
  const parts: string[] = [];
  if (!s) parts.push(t('status.unknown'));
  else {
    parts.push(s.connected ? t('status.connected') : t('status.disconnected') + (s.error ? ': ' + s.error : ''));
    parts.push(s.clock ? t('status.clock', { clock: s.clock }) : t('status.noclock'));
    if (s.port) parts.push(s.port);
  }
  const seen = Math.max(b.heard, s?.last_seen ? Date.parse(s.last_seen) : 0);
  parts.push(seen ? t('status.heard', { time: new Date(seen).toLocaleTimeString([], { hour12: false }) }) : t('status.notheard'));
  attr(b.status, 'data-connected', s ? String(s.connected) : null);
  text(b.status, parts.join(' · '));
}


function upsertBoard(s: Sender, d: BoardData): void {
  let b = boards.get(d.game);
  if (!b) {
    // A board's next game (a later round) takes its place; an earlier one is ignored.
    const old = [...boards.values()].find(o => o.card.data.board === d.board);
    if (old && old.card.data.round > d.round) return;
    const prevStatus = old?.boardStatus;
    if (old) {
      d = { ...d, board_id: d.board_id ?? old.card.data.board_id };
      inView.unobserve(old.card.el);
      old.card.diagram.destroy();
      old.card.el.remove();
      boards.delete(old.card.data.game);
    }
    const card = new BoardCard(d, { view: 'grid' });
    const status = el('p', { class: 'board-status', 'data-board-status': '' });
    const tools = boardTools(s, d);
    card.el.append(status, tools);
    card.el.classList.remove('card-grid');
    card.el.classList.add('card-live');
    b = { card, status, tools, heard: 0, boardStatus: prevStatus };
    boards.set(d.game, b);
    if (d.board_id) byBoardID.set(d.board_id, d.game);
    const after = [...boardsEl.children].find(n => Number((n as HTMLElement).dataset.board) > d.board);
    card.el.dataset.board = String(d.board);
    boardsEl.insertBefore(card.el, after ?? null);
    inView.observe(card.el);
  } else {
    b.card.update(d);
  }
  statusLine(b);
}

function heard(game: string): void {
  const b = boards.get(game);
  if (b) {
    b.heard = Date.now();
    statusLine(b);
  }
}

function addAlert(s: Sender, a: Alert, live: boolean): void {
  if (alertEls.has(a.id)) return;
  const e = renderAlert(a, s, boardName, g => boards.get(g)?.card.data.variant ?? 'chess');
  alertEls.set(a.id, e);
  alertData.set(a.id, a);
  const target = a.kind === 'arbiter_action' && typeof a.proposal?.alert === 'string' ? alertEls.get(a.proposal.alert) : undefined;
  if (target) attr(target, 'data-handled', String(a.proposal?.cmd ?? 'handled'));
  if (live) alertsEl.prepend(e);
  else alertsEl.append(e);
  text(document.getElementById('alerts-note')!, t('arb.alerts.count', { n: alertEls.size }));
}

async function loadHistory(s: Sender, cfg: PageConfig): Promise<void> {
  const P = cfg.prefix;
  const bucket = `${P}_games`;
  await Promise.all(
    cfg.boards.map(async b => {
      const m = await lastMsg(s.nc, `KV_${bucket}`, `$KV.${bucket}.${b.game}`);
      if (!m) return;
      const st = m.json<GameState>();
      const age = Date.now() - Date.parse(st.updated_at);
      upsertBoard(s, fromState(st, boards.get(st.game)?.card.data, isNaN(age) ? 0 : age));
    }),
  );
  const got = await recentAlerts(s.nc, P);
  for (const a of got) addAlert(s, a, true);
  if (!alertEls.size) text(document.getElementById('alerts-note')!, t('arb.alerts.none'));
}

async function signIn(user: string, password: string): Promise<void> {
  let sender: Sender | undefined;
  const early: Alert[] = [];
  const st = await connectStaff(user, password, 'arbiter', true, a => (sender ? addAlert(sender, a, true) : early.push(a)));
  if (!st) return;
  const { nc: c, cfg } = st;
  eventName = cfg.event.name || cfg.event.id;
  showTitle();
  text(document.getElementById('site')!, cfg.event.site);
  const P = cfg.prefix;
  const s: Sender = { nc: c, prefix: P, user };
  sender = s;
  current = s;
  for (const a of early) addAlert(s, a, true);
  nc = c;
  form.hidden = true;
  workspace.hidden = false;
  document.getElementById('signout')!.hidden = false;
  who = user;
  text(document.getElementById('who')!, t('signin.as', { user }));

  for (const b of cfg.boards) upsertBoard(s, emptyBoard(b.game, b.board, b.variant, b.board_id, b.start_fen));
  c.subscribe(`$KV.${P}_games.>`, {
    callback: (err, m) => {
      if (err) return;
      const st = m.json<GameState>();
      if (st.event !== cfg.event.id) return;
      upsertBoard(s, fromState(st, boards.get(st.game)?.card.data, 0));
      heard(st.game);
    },
  });
  c.subscribe(`${P}.game.*.*.*.*`, {
    callback: (err, m) => {
      if (err) return;
      const kind = m.subject.split('.').pop();
      const game = m.subject.split('.').slice(2, 5).join('.');
      const b = boards.get(game);
      if (!b) return;
      const d = { ...b.card.data };
      if (kind === 'clock') {
        const ce = m.json<ClockEvent>();
        d.clock = { white_ms: ce.white_ms, black_ms: ce.black_ms, running: ce.running, age_ms: 0 };
      } else if (kind === 'move') {
        const mv = m.json<MoveEvent>();
        d.fen = mv.fen;
        d.ply = mv.ply;
        d.revision = mv.revision;
        d.last = { ply: mv.ply, san: mv.san, uci: mv.uci, notation: mv.notation };
        if (mv.pockets) d.pockets = mv.pockets;
        if (mv.clock) d.clock = { ...mv.clock, running: turn(mv.fen), age_ms: 0 };
      } else if (kind === 'end') {
        const r = m.json<Result>();
        d.result = r.result === '*' ? '' : r.result;
        d.provisional = r.provisional;
        d.termination = r.termination;
        if (d.result && d.clock) d.clock = { ...d.clock, running: 'none' };
      } else {
        return;
      }
      b.card.update(d);
      heard(game);
    },
  });
  c.subscribe(`${P}.board.*.status`, {
    callback: (err, m) => {
      if (err) return;
      const st = m.json<BoardStatus>();
      const game = byBoardID.get(st.board_id);
      const b = game ? boards.get(game) : undefined;
      if (b) {
        b.boardStatus = st;
        statusLine(b);
      }
    },
  });
  // The boards' latest status (published on change only) from the daemon.
  try {
    const m = await c.request(`${P}.api.boards`, undefined, { timeout: 5000 });
    for (const st of m.json<{ boards: BoardStatus[] }>().boards ?? []) {
      const game = byBoardID.get(st.board_id);
      const b = game ? boards.get(game) : undefined;
      if (b && (!b.boardStatus || Date.parse(b.boardStatus.at) <= Date.parse(st.at))) {
        b.boardStatus = st;
        statusLine(b);
      }
    }
  } catch {
    // a daemon without the web pages' responder: statuses come as they change
  }
  await loadHistory(s, cfg);
  setInterval(() => {
    for (const b of boards.values()) b.card.tick();
  }, 250);
}

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
xiangqiStyleSwitch();
onLang(() => {
  showTitle();
  if (who) text(document.getElementById('who')!, t('signin.as', { user: who }));
  const s = current;
  for (const b of boards.values()) {
    b.card.relabel();
    statusLine(b);
    if (s) {
      const tools = boardTools(s, b.card.data);
      b.tools.replaceWith(tools);
      b.tools = tools;
    }
  }
  if (s) {
    for (const [id, a] of alertData) {
      const old = alertEls.get(id)!;
      const e = renderAlert(a, s, boardName, g => boards.get(g)?.card.data.variant ?? 'chess');
      const handled = old.getAttribute('data-handled');
      if (handled) e.setAttribute('data-handled', handled);
      old.replaceWith(e);
      alertEls.set(id, e);
    }
    const note = document.getElementById('alerts-note')!;
    text(note, alertEls.size ? t('arb.alerts.count', { n: alertEls.size }) : t('arb.alerts.none'));
  }
});
forgetStored();
const asked = fromAddress();
if (asked.refused) {
  showError(t('err.query'));
} else if (asked.creds) {
  (form.elements.namedItem('user') as HTMLInputElement).value = asked.creds.user;
  void signIn(asked.creds.user, asked.creds.password);
}
