// An alert on the arbiters' page: severity, article, message, proposal, the
// evidence timeline, and the commands that apply to it (data-cmd buttons).

import { el } from './dom';
import { formatClock } from './clock';
import { parseClock, pieceSelect, sendCommand, showReply, type Sender } from './commands';
import { has, lang, t } from './i18n';
import type { Alert } from './types';

function time(at: string): string {
  const d = new Date(at);
  return isNaN(d.getTime()) ? at : d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

function proposalText(p: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(p)) {
    out.push(`${k}: ${k.endsWith('_ms') && typeof v === 'number' ? formatClock(v) : Array.isArray(v) ? v.join(', ') : String(v)}`);
  }
  return out.join(' · ');
}

/** The name of an alert kind in the page's language (the kind itself
 * when the tables do not know it). */
export function kindName(kind: string): string {
  const k = 'kind.' + kind;
  return has(k) ? t(k) : kind.replace(/_/g, ' ');
}

function sideName(side: string): string {
  return side === 'white' ? t('side.white') : side === 'black' ? t('side.black') : side === 'red' ? t('side.red') : side;
}

/** The alert's message in the page's language: the daemon's own (English)
 * message in English; elsewhere the kind's sentence with the side and ply. */
export function alertMessage(a: Alert): string {
  if (lang === 'en' && a.message) return a.message;
  const k = 'kind.' + a.kind;
  const parts = [has(k) ? t(k) : a.kind.replace(/_/g, ' ')];
  if (a.side) parts.push(sideName(a.side));
  if (a.ply) parts.push(t('alert.ply', { ply: a.ply }));
  return parts.join(' · ');
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
    btn('acknowledge', t('alert.acknowledge'), { alert_id: a.id });
    btn('reject', t('alert.reject'), { alert_id: a.id });
  }
  if (!record && !p.applied && (p.result !== undefined || p.time_add_ms !== undefined || p.technical_error !== undefined) && a.kind !== 'claim') {
    btn('apply_penalty', t('alert.apply'), { alert_id: a.id });
  }
  if (typeof p.reinstate_ply === 'number') {
    btn('reinstate', t('alert.reinstate', { ply: p.reinstate_ply }), { ply: p.reinstate_ply });
  }
  if (typeof p.result === 'string' && !record && a.kind !== 'claim') {
    btn('set_result', t('alert.setresult', { result: p.result }), { result: p.result, termination: a.kind, article: a.article });
  }
  if (a.kind === 'claim') {
    btn('uphold_claim', t('alert.uphold'), { alert_id: a.id });
    btn('reject_claim', t('alert.rejectclaim'), { alert_id: a.id });
  }
  if (typeof p.claim === 'string' && a.kind !== 'claim' && !record) {
    const side = typeof p.side === 'string' ? p.side : a.side ?? 'white';
    const body: Record<string, unknown> = { side, claim: p.claim };
    if (typeof p.move === 'string') body.move = p.move;
    btn('claim', t('alert.verify', { claim: p.claim, side: sideName(side) }), body);
  }
  if (typeof p.white_ms === 'number' || typeof p.black_ms === 'number') {
    const w = el('input', { name: 'white', value: typeof p.white_ms === 'number' ? formatClock(p.white_ms) : '', placeholder: t('arb.clock.white.ph'), 'aria-label': t('arb.clock.white') });
    const b = el('input', { name: 'black', value: typeof p.black_ms === 'number' ? formatClock(p.black_ms) : '', placeholder: t('arb.clock.black.ph'), 'aria-label': t('arb.clock.black') });
    const go = el('button', { type: 'submit', 'data-cmd': 'adjust_clock' }, t('alert.setclock'));
    const f = el('form', {}, w, b, go);
    f.addEventListener('submit', e => {
      e.preventDefault();
      const wm = parseClock(w.value);
      const bm = parseClock(b.value);
      if (isNaN(wm) || isNaN(bm)) {
        showReply(box, false, t('arb.err.clocks'));
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
      ? el('select', { name: 'square', 'aria-label': t('arb.point') }, ...squares.map(x => el('option', { value: x }, x)))
      : el('input', { name: 'square', placeholder: t('arb.point.ph'), 'aria-label': t('arb.point') });
    const piece = pieceSelect(variantOf(a.game));
    const go = el('button', { type: 'submit', 'data-cmd': 'identify' }, t('alert.identify'));
    const f = el('form', {}, sq, piece, go);
    f.addEventListener('submit', e => {
      e.preventDefault();
      const square = sq.value.trim();
      if (!square) {
        showReply(box, false, t('arb.err.point'));
        return;
      }
      void sendCommand(s, a.game, { cmd: 'identify', square, piece: piece.value, alert_id: a.id }, box, go);
    });
    cmds.append(f);
  }
  const head = el(
    'div',
    { class: 'head' },
    el('span', { class: 'sev' }, has('sev.' + a.severity) ? t(('sev.' + a.severity) as 'sev.crit') : a.severity),
    el('span', { class: 'kind' }, kindName(a.kind)),
    el('span', {}, a.article ? t('alert.article', { article: a.article }) : ''),
    el('span', {}, boardName(a.game)),
    el('span', {}, a.side ? sideName(a.side) : ''),
    el('span', {}, a.ply ? t('alert.ply', { ply: a.ply }) : ''),
    el('time', { datetime: a.at }, time(a.at)),
  );
  const parts: Node[] = [head, el('p', { class: 'msg' }, alertMessage(a))];
  // The daemon writes its message in English: other languages show it too, marked.
  if (lang !== 'en' && a.message) parts.push(el('p', { class: 'msg-daemon', lang: 'en' }, t('alert.daemon', { msg: a.message })));
  if (Object.keys(p).length) parts.push(el('p', { class: 'proposal' }, t('alert.proposal', { p: proposalText(p) })));
  if (a.evidence?.length) {
    parts.push(el('ol', { class: 'timeline', 'aria-label': t('alert.evidence') }, ...a.evidence.map(e => el('li', {}, `${time(e.at)} ${e.event}${e.piece ? ' ' + e.piece : ''}${e.square ? ' ' + e.square : ''}`))));
  }
  if (cmds.childElementCount) parts.push(cmds);
  parts.push(box);
  return el('article', { class: 'alert', 'data-alert-id': a.id, 'data-kind': a.kind, 'data-severity': a.severity, 'data-alert-game': a.game }, ...parts);
}
