// The arbiters' page (GET /arbiter): signs in to NATS over websocket as an
// arbiter user, shows the live copy and every alert as it comes, and sends
// the commands of interfaces.md §3.1.

import { wsconnect, type NatsConnection, type Msg } from '@nats-io/nats-core';
import { BoardCard } from './card';
import { renderAlert } from './alerts';
import { parseClock, pieceSelect, sendCommand, sendMove, showReply, type Sender } from './commands';
import { attr, el, getJSON, text } from './dom';
import { forgetStored, fromAddress, fromForm, signOut } from './signin';
import type { Alert, BoardData, BoardStatus, ClockEvent, GameState, MoveEvent, PageConfig, Result } from './types';

const form = document.getElementById('signin') as HTMLFormElement;
const errors = document.getElementById('errors')!;
const workspace = document.getElementById('workspace')!;
const conn = document.getElementById('connection')!;
const alertsEl = document.getElementById('alerts')!;
const boardsEl = document.getElementById('boards')!;

let nc: NatsConnection | undefined;

function showError(msg: string): void {
  errors.replaceChildren(el('p', { 'data-error': '' }, msg));
}

function setConn(state: string, label: string): void {
  attr(conn, 'data-connection', state);
  text(conn, label);
}

interface LiveBoard {
  card: BoardCard;
  status: HTMLElement;
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

function boardName(game: string): string {
  const b = game.split('.');
  return b.length === 3 ? `round ${b[1]} board ${b[2]}` : game;
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
  if (!s) parts.push('board status: not heard yet');
  else {
    parts.push(s.connected ? 'connected' : 'disconnected' + (s.error ? ': ' + s.error : ''));
    parts.push(s.clock ? 'clock ' + s.clock : 'no clock');
    if (s.port) parts.push(s.port);
  }
  const seen = Math.max(b.heard, s?.last_seen ? Date.parse(s.last_seen) : 0);
  parts.push(seen ? 'last heard ' + new Date(seen).toLocaleTimeString([], { hour12: false }) : 'not heard since sign-in');
  attr(b.status, 'data-connected', s ? String(s.connected) : null);
  text(b.status, parts.join(' · '));
}

function boardTools(s: Sender, d: BoardData): HTMLElement {
  const box = el('div', { class: 'replybox' });
  const game = () => d.game;
  const form = (label: string, cmd: string, fields: HTMLElement[], body: () => Record<string, unknown> | string) => {
    const go = el('button', { type: 'submit', 'data-cmd': cmd }, label);
    const f = el('form', {}, ...fields, go);
    f.addEventListener('submit', e => {
      e.preventDefault();
      const b = body();
      if (typeof b === 'string') return showReply(box, false, b);
      if (cmd === 'move') void sendMove(s, game(), b, box, go);
      else void sendCommand(s, game(), { cmd, ...b }, box, go);
    });
    return f;
  };
  const side = () => el('select', { name: 'side', 'aria-label': 'Side' }, el('option', { value: 'white' }, 'White'), el('option', { value: 'black' }, 'Black'));
  const input = (name: string, ph: string) => el('input', { name, placeholder: ph, 'aria-label': ph });

  const res = el('select', { name: 'result', 'aria-label': 'Result' }, ...['1-0', '0-1', '1/2-1/2', '*'].map(r => el('option', { value: r }, r)));
  const term = input('termination', 'termination');
  const fResult = form('Set result', 'set_result', [res, term], () => ({ result: res.value, termination: term.value || undefined }));

  const w = input('white', 'white h:mm:ss');
  const b = input('black', 'black h:mm:ss');
  const run = el('select', { name: 'running', 'aria-label': 'Running' }, ...['none', 'white', 'black'].map(r => el('option', { value: r }, 'runs: ' + r)));
  const fClock = form('Adjust clock', 'adjust_clock', [w, b, run], () => {
    const wm = parseClock(w.value);
    const bm = parseClock(b.value);
    return isNaN(wm) || isNaN(bm) ? 'Clock times: h:mm:ss, m:ss or seconds, both sides.' : { white_ms: wm, black_ms: bm, running: run.value };
  });

  const ply = input('ply', 'ply');
  const fReinstate = form('Reinstate after ply', 'reinstate', [ply], () => (/^\d+$/.test(ply.value) ? { ply: Number(ply.value) } : 'The ply is a number (0: the start position).'));

  const pen = el('select', { name: 'penalty', 'aria-label': 'Penalty' }, ...['time_add', 'technical_error', 'illegal_move', 'loss'].map(p => el('option', { value: p }, p.replace(/_/g, ' '))));
  const penSide = side();
  const add = input('time_add', 'add m:ss');
  const fPenalty = form('Apply penalty', 'apply_penalty', [pen, penSide, add], () => {
    const body: Record<string, unknown> = { penalty: pen.value, side: penSide.value };
    if (pen.value === 'time_add') {
      const ms = parseClock(add.value);
      if (isNaN(ms) || ms === 0) return 'Time to add: m:ss or seconds.';
      body.time_add_ms = ms;
    }
    return body;
  });

  const claimSide = side();
  const claim = el('select', { name: 'claim', 'aria-label': 'Claim' }, ...['threefold', 'fifty', 'time_win'].map(c => el('option', { value: c }, c.replace('_', ' '))));
  const claimMove = input('move', 'intended move');
  const fClaim = form('Verify claim', 'claim', [claimSide, claim, claimMove], () => ({ side: claimSide.value, claim: claim.value, move: claimMove.value || undefined }));

  const offerSide = side();
  const fOffer = form('Record draw offer', 'draw_offer', [offerSide], () => ({ side: offerSide.value }));

  const mv = input('move', d.variant === 'xiangqi' ? 'move, e.g. P2-5' : 'move, e.g. Nf3');
  const notation = el('select', { name: 'notation', 'aria-label': 'Notation' }, ...(d.variant === 'xiangqi' ? ['vi', 'wxf', 'iccs'] : ['san', 'uci']).map(n => el('option', { value: n }, n)));
  const mw = input('white_clock', 'white clock');
  const mb = input('black_clock', 'black clock');
  const fMove = form('Enter move', 'move', [mv, notation, mw, mb], () => {
    if (!mv.value.trim()) return 'Type the move.';
    const body: Record<string, unknown> = { move: mv.value.trim(), notation: notation.value };
    if (mw.value || mb.value) {
      const wm = parseClock(mw.value);
      const bm = parseClock(mb.value);
      if (isNaN(wm) || isNaN(bm)) return 'Clock times: h:mm:ss, m:ss or seconds, both sides (or neither).';
      body.clock = { white_ms: wm, black_ms: bm };
    }
    return body;
  });
  // An Open Board Protocol board that senses only occupancy: the arbiter
  // names the piece on a point (the daemon refuses it for other boards).
  const idSquare = input('square', 'point, e.g. e2');
  const idPiece = pieceSelect(d.variant);
  const fIdentify = form('Identify piece', 'identify', [idSquare, idPiece], () => (idSquare.value.trim() ? { square: idSquare.value.trim(), piece: idPiece.value } : 'Name the point (e.g. e2).'));
  return el('details', { class: 'board-tools' }, el('summary', {}, 'Commands'), el('div', { class: 'cmds' }, fMove, fResult, fClock, fReinstate, fPenalty, fClaim, fOffer, fIdentify), box);
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
    card.el.append(status, boardTools(s, d));
    card.el.classList.remove('card-grid');
    card.el.classList.add('card-live');
    b = { card, status, heard: 0, boardStatus: prevStatus };
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
  const target = a.kind === 'arbiter_action' && typeof a.proposal?.alert === 'string' ? alertEls.get(a.proposal.alert) : undefined;
  if (target) attr(target, 'data-handled', String(a.proposal?.cmd ?? 'handled'));
  if (live) alertsEl.prepend(e);
  else alertsEl.append(e);
  text(document.getElementById('alerts-note')!, `${alertEls.size} alert(s), newest first.`);
}

/** Direct get of the last message on a subject of a stream ($JS.API.DIRECT.GET). */
async function lastMsg(c: NatsConnection, stream: string, subject: string): Promise<Msg | undefined> {
  try {
    const m = await c.request(`$JS.API.DIRECT.GET.${stream}.${subject}`, undefined, { timeout: 5000 });
    return m.headers?.code && m.headers.code >= 300 ? undefined : m.data.length ? m : undefined;
  } catch {
    return undefined;
  }
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
  // The alerts of the last 12 hours from the ALERTS stream, oldest first.
  const since = new Date(Date.now() - 12 * 3600 * 1000).toISOString();
  const got: Alert[] = [];
  try {
    const it = await s.nc.requestMany(`$JS.API.DIRECT.GET.${P.toUpperCase()}_ALERTS`, JSON.stringify({ start_time: since, batch: 1000, next_by_subj: `${P}.arbiter.*.*.*.alert` }), { strategy: 'sentinel', maxWait: 5000 });
    for await (const m of it) {
      if (!m.data.length) break;
      got.push(m.json<Alert>());
    }
  } catch {
    // no stream or no access: only new alerts are shown
  }
  got.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  for (const a of got) addAlert(s, a, true);
  if (!alertEls.size) text(document.getElementById('alerts-note')!, 'No alert in the last 12 hours. New ones appear here as they come.');
}

async function signIn(user: string, password: string): Promise<void> {
  errors.replaceChildren();
  setConn('connecting', 'signing in…');
  let cfg: PageConfig;
  try {
    cfg = await getJSON<PageConfig>('api/config.json');
  } catch (err) {
    setConn('signed-out', 'signed out');
    return showError('The daemon did not answer: ' + String(err));
  }
  text(document.getElementById('event')!, 'Arbiter · ' + (cfg.event.name || cfg.event.id));
  text(document.getElementById('site')!, cfg.event.site);
  if (!cfg.websocket) {
    setConn('signed-out', 'signed out');
    return showError('This daemon has no NATS websocket for browsers: set nats.embedded.websocket (or the websocket URL of the central NATS servers) in its configuration.');
  }
  const url = new URL(cfg.websocket, location.href);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  let c: NatsConnection;
  try {
    c = await wsconnect({ servers: url.toString(), user, pass: password, name: 'dgtbridge arbiter page', inboxPrefix: '_INBOX_arbiter', maxReconnectAttempts: -1, reconnectTimeWait: 2000, ignoreAuthErrorAbort: false });
  } catch (err) {
    setConn('signed-out', 'signed out');
    const auth = /authoriz|authentic/i.test(String(err));
    return showError(auth ? `Sign-in refused: the NATS server does not accept user "${user}" with this password.` : `Cannot reach the NATS websocket at ${url}: ${String(err)}`);
  }
  // Arbiter rights: the alert subjects. A public or organiser user is refused
  // by the server's permissions, before any alert can show.
  const P = cfg.prefix;
  let denied = '';
  const s: Sender = { nc: c, prefix: P, user };
  const alertSub = c.subscribe(`${P}.arbiter.*.*.*.alert`, {
    callback: (err, m) => {
      if (err) {
        denied = String(err.message ?? err);
        return;
      }
      if (!denied) addAlert(s, m.json<Alert>(), true);
    },
  });
  await c.flush().catch(() => undefined);
  if (denied || alertSub.isClosed()) {
    await c.close().catch(() => undefined);
    setConn('signed-out', 'signed out');
    return showError(`User "${user}" is not an arbiter: the NATS server refuses it the arbiter subjects (${denied || 'permission denied'}). Sign in with an arbiter user.`);
  }
  nc = c;
  form.hidden = true;
  workspace.hidden = false;
  document.getElementById('signout')!.hidden = false;
  text(document.getElementById('who')!, 'signed in as ' + user);
  setConn('live', 'live');

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
  void (async () => {
    for await (const st of c.status()) {
      if (st.type === 'disconnect') setConn('reconnecting', 'reconnecting…');
      else if (st.type === 'reconnect') setConn('live', 'live');
    }
  })();
  void c.closed().then(err => {
    if (nc === c) {
      setConn('closed', 'disconnected');
      showError('The connection to NATS closed' + (err ? ': ' + String(err) : '.') + ' Reload the page to sign in again.');
    }
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
  signOut(() => c?.close());
});

form.addEventListener('submit', e => {
  e.preventDefault();
  const c = fromForm(form);
  void signIn(c.user, c.password);
});

forgetStored();
const asked = fromAddress();
if (asked.refused) {
  showError('A password in the address (?password=) is refused: it is sent to the server and kept in its logs and in the browser history. Sign in with the form, or put the user and password after # (#user=…&password=…), which the browser never sends.');
} else if (asked.creds) {
  (form.elements.namedItem('user') as HTMLInputElement).value = asked.creds.user;
  void signIn(asked.creds.user, asked.creds.password);
}
