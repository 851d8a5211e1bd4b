// The commands of one board (the arbiters' page, and the board's detail on
// the hall page for arbiters): move entry, result, clock, reinstate,
// penalty, claim, draw offer, identify, move to a spare; each a form whose button has
// data-cmd, the reply shown below (interfaces.md §3.1).

import { el } from './dom';
import { t, type Key } from './i18n';
import { parseClock, pieceSelect, sendCommand, sendMove, showReply, type Sender } from './commands';

/** The board's command forms in a <details>, for game d.game. */
export function boardTools(s: Sender, d: { game: string; variant: string }): HTMLElement {
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
  const side = () => el('select', { name: 'side', 'aria-label': t('arb.side') }, el('option', { value: 'white' }, t(d.variant === 'xiangqi' ? 'side.red' : 'side.white')), el('option', { value: 'black' }, t('side.black')));
  const input = (name: string, ph: string) => el('input', { name, placeholder: ph, 'aria-label': ph });
  const run = (key: Key) => t(key);

  const res = el('select', { name: 'result', 'aria-label': t('arb.result') }, ...['1-0', '0-1', '1/2-1/2', '*'].map(r => el('option', { value: r }, r)));
  const term = input('termination', t('arb.termination'));
  const fResult = form(t('arb.setresult'), 'set_result', [res, term], () => ({ result: res.value, termination: term.value || undefined }));

  const w = input('white', t('arb.clock.white.ph'));
  const b = input('black', t('arb.clock.black.ph'));
  const runs = el('select', { name: 'running', 'aria-label': t('arb.running') }, ...(['none', 'white', 'black'] as const).map(r => el('option', { value: r }, run(`arb.runs.${r}`))));
  const fClock = form(t('arb.adjustclock'), 'adjust_clock', [w, b, runs], () => {
    const wm = parseClock(w.value);
    const bm = parseClock(b.value);
    return isNaN(wm) || isNaN(bm) ? t('arb.err.clocks') : { white_ms: wm, black_ms: bm, running: runs.value };
  });

  const ply = input('ply', t('arb.ply'));
  const fReinstate = form(t('arb.reinstate'), 'reinstate', [ply], () => (/^\d+$/.test(ply.value) ? { ply: Number(ply.value) } : t('arb.err.ply')));

  const pen = el('select', { name: 'penalty', 'aria-label': t('arb.penalty') }, ...(['time_add', 'technical_error', 'illegal_move', 'loss'] as const).map(p => el('option', { value: p }, run(`arb.penalty.${p}`))));
  const penSide = side();
  const add = input('time_add', t('arb.timeadd'));
  const fPenalty = form(t('arb.applypenalty'), 'apply_penalty', [pen, penSide, add], () => {
    const body: Record<string, unknown> = { penalty: pen.value, side: penSide.value };
    if (pen.value === 'time_add') {
      const ms = parseClock(add.value);
      if (isNaN(ms) || ms === 0) return t('arb.err.timeadd');
      body.time_add_ms = ms;
    }
    return body;
  });

  const claimSide = side();
  const claim = el('select', { name: 'claim', 'aria-label': t('arb.claim') }, ...(['threefold', 'fifty', 'time_win'] as const).map(c => el('option', { value: c }, run(`arb.claim.${c}`))));
  const claimMove = input('move', t('arb.intended'));
  const fClaim = form(t('arb.verifyclaim'), 'claim', [claimSide, claim, claimMove], () => ({ side: claimSide.value, claim: claim.value, move: claimMove.value || undefined }));

  const offerSide = side();
  const fOffer = form(t('arb.drawoffer'), 'draw_offer', [offerSide], () => ({ side: offerSide.value }));

  const mv = input('move', t(d.variant === 'xiangqi' ? 'arb.move.xq' : 'arb.move.chess'));
  const notation = el('select', { name: 'notation', 'aria-label': t('arb.notation') }, ...(d.variant === 'xiangqi' ? ['vi', 'wxf', 'iccs'] : ['san', 'uci']).map(n => el('option', { value: n }, n)));
  const mw = input('white_clock', t('arb.clock.white'));
  const mb = input('black_clock', t('arb.clock.black'));
  const fMove = form(t('arb.entermove'), 'move', [mv, notation, mw, mb], () => {
    if (!mv.value.trim()) return t('arb.err.move');
    const body: Record<string, unknown> = { move: mv.value.trim(), notation: notation.value };
    if (mw.value || mb.value) {
      const wm = parseClock(mw.value);
      const bm = parseClock(mb.value);
      if (isNaN(wm) || isNaN(bm)) return t('arb.err.moveclocks');
      body.clock = { white_ms: wm, black_ms: bm };
    }
    return body;
  });
  // An Open Board Protocol board that senses only occupancy: the arbiter
  // names the piece on a point (the daemon refuses it for other boards).
  const idSquare = input('square', t('arb.point.ph'));
  const idPiece = pieceSelect(d.variant);
  const fIdentify = form(t('arb.identify'), 'identify', [idSquare, idPiece], () => (idSquare.value.trim() ? { square: idSquare.value.trim(), piece: idPiece.value } : t('arb.err.point')));
  // A board that fails mid-game: the game moves to a spare of the
  // configuration (or back to its own board, by its id).
  const spareTo = input('to', t('arb.spare.ph'));
  const fSwitch = form(t('arb.switchboard'), 'switch_board', [spareTo], () => (spareTo.value.trim() ? { to: spareTo.value.trim() } : t('arb.err.spare')));
  return el('details', { class: 'board-tools' }, el('summary', {}, t('arb.commands')), el('div', { class: 'cmds' }, fMove, fResult, fClock, fReinstate, fPenalty, fClaim, fOffer, fIdentify, fSwitch), box);
}
