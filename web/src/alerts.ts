// An alert on the arbiters' page: severity, article, message, proposal, the
// evidence timeline, and the commands that apply to it (data-cmd buttons).

import { el } from './dom';
import { formatClock } from './clock';
import { parseClock, pieceSelect, sendCommand, showReply, type Sender } from './commands';
import type { Alert } from './types';

function time(at: string): string {
  const d = new Date(at);
  return isNaN(d.getTime()) ? at : d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

function proposalText(p: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(p)) {
    if (k.endsWith('_ms') && typeof v === 'number') out.push(`${k.replace(/_ms$/, '')} ${formatClock(v)}`);
    else out.push(`${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
  }
  return out.join(' · ');
}

/** Renders an alert with its commands; variantOf names the variant of a
 * game (the pieces an identify form offers). */
export function renderAlert(a: Alert, s: Sender, boardName: (g: string) => string, variantOf: (g: string) => string = () => 'chess'): HTMLElement {
  const box = el('div', { class: 'replybox' });
  const cmds = el('div', { class: 'cmds' });
  const p = a.proposal ?? {};
  const btn = (cmd: string, label: string, body: Record<string, unknown>) => {
    const b = el('button', { type: 'button', 'data-cmd': cmd }, label);
    b.addEventListener('click', () => void sendCommand(s, a.game, { cmd, ...body }, box, b));
    cmds.append(b);
  };
  const record = a.kind === 'arbiter_action';
  if (!record) {
    btn('acknowledge', 'Acknowledge', { alert_id: a.id });
    btn('reject', 'Reject (alert wrong)', { alert_id: a.id });
  }
  if (!record && !p.applied && (p.result !== undefined || p.time_add_ms !== undefined || p.technical_error !== undefined) && a.kind !== 'claim') {
    btn('apply_penalty', 'Apply the proposal', { alert_id: a.id });
  }
  if (typeof p.reinstate_ply === 'number') {
    btn('reinstate', `Reinstate after ply ${p.reinstate_ply}`, { ply: p.reinstate_ply });
  }
  if (typeof p.result === 'string' && !record && a.kind !== 'claim') {
    btn('set_result', `Set result ${p.result}`, { result: p.result, termination: a.kind, article: a.article });
  }
  if (a.kind === 'claim') {
    btn('uphold_claim', 'Uphold the claim', { alert_id: a.id });
    btn('reject_claim', 'Reject the claim', { alert_id: a.id });
  }
  if (typeof p.claim === 'string' && a.kind !== 'claim' && !record) {
    const side = typeof p.side === 'string' ? p.side : a.side ?? 'white';
    const body: Record<string, unknown> = { side, claim: p.claim };
    if (typeof p.move === 'string') body.move = p.move;
    btn('claim', `Verify a ${p.claim} claim by ${side}`, body);
  }
  if (typeof p.white_ms === 'number' || typeof p.black_ms === 'number') {
    const w = el('input', { name: 'white', value: typeof p.white_ms === 'number' ? formatClock(p.white_ms) : '', placeholder: 'white h:mm:ss', 'aria-label': 'White clock' });
    const b = el('input', { name: 'black', value: typeof p.black_ms === 'number' ? formatClock(p.black_ms) : '', placeholder: 'black h:mm:ss', 'aria-label': 'Black clock' });
    const go = el('button', { type: 'submit', 'data-cmd': 'adjust_clock' }, 'Set the clock');
    const f = el('form', {}, w, b, go);
    f.addEventListener('submit', e => {
      e.preventDefault();
      const wm = parseClock(w.value);
      const bm = parseClock(b.value);
      if (isNaN(wm) || isNaN(bm)) {
        showReply(box, false, 'Clock times: h:mm:ss, m:ss or seconds, both sides.');
        return;
      }
      void sendCommand(s, a.game, { cmd: 'adjust_clock', white_ms: wm, black_ms: bm }, box, go);
    });
    cmds.append(f);
  }
  if (!record && (a.kind === 'unidentified_piece' || p.cmd === 'identify')) {
    // An occupancy board shows a piece it cannot name: the arbiter looks
    // and names it (the identify command, docs/contract.md).
    const squares = Array.isArray(p.squares) ? p.squares.filter((x): x is string => typeof x === 'string') : [];
    if (typeof p.square === 'string' && !squares.includes(p.square)) squares.unshift(p.square);
    const sq = squares.length
      ? el('select', { name: 'square', 'aria-label': 'Point' }, ...squares.map(x => el('option', { value: x }, x)))
      : el('input', { name: 'square', placeholder: 'point, e.g. e2', 'aria-label': 'Point' });
    const piece = pieceSelect(variantOf(a.game));
    const go = el('button', { type: 'submit', 'data-cmd': 'identify' }, 'Identify the piece');
    const f = el('form', {}, sq, piece, go);
    f.addEventListener('submit', e => {
      e.preventDefault();
      const square = sq.value.trim();
      if (!square) {
        showReply(box, false, 'Name the point (e.g. e2).');
        return;
      }
      void sendCommand(s, a.game, { cmd: 'identify', square, piece: piece.value, alert_id: a.id }, box, go);
    });
    cmds.append(f);
  }
  const head = el(
    'div',
    { class: 'head' },
    el('span', { class: 'sev' }, a.severity),
    el('span', { class: 'kind' }, a.kind.replace(/_/g, ' ')),
    el('span', {}, a.article ? 'art. ' + a.article : ''),
    el('span', {}, boardName(a.game)),
    el('span', {}, a.side ? a.side : ''),
    el('span', {}, a.ply ? 'ply ' + a.ply : ''),
    el('time', { datetime: a.at }, time(a.at)),
  );
  const parts: Node[] = [head, el('p', { class: 'msg' }, a.message)];
  if (Object.keys(p).length) parts.push(el('p', { class: 'proposal' }, 'Proposal: ' + proposalText(p)));
  if (a.evidence?.length) {
    parts.push(el('ol', { class: 'timeline', 'aria-label': 'Evidence' }, ...a.evidence.map(e => el('li', {}, `${time(e.at)} ${e.event}${e.piece ? ' ' + e.piece : ''}${e.square ? ' ' + e.square : ''}`))));
  }
  if (cmds.childElementCount) parts.push(cmds);
  parts.push(box);
  return el('article', { class: 'alert', 'data-alert-id': a.id, 'data-kind': a.kind, 'data-severity': a.severity, 'data-alert-game': a.game }, ...parts);
}
