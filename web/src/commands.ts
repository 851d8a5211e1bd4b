// Arbiter commands (docs/contract.md §3.1): <p>.arbiter.<g>.cmd and
// <p>.input.<g>.move requests, each from a button with data-cmd, the reply
// shown next to it (an error as an element with data-error).

import type { NatsConnection } from '@nats-io/nats-core';
import { el } from './dom';

export interface Sender {
  nc: NatsConnection;
  prefix: string;
  user: string;
}

interface Reply {
  ok: boolean;
  error?: string;
  ply?: number;
}

/** Shows a reply in the element after the command's controls: ok, an
 * error (with data-error), or "pending" while the request is out. */
export function showReply(box: HTMLElement, ok: boolean | 'pending', msg: string): void {
  const state = ok === 'pending' ? 'pending' : ok ? 'ok' : 'error';
  const attrs: Record<string, string> = { class: 'reply', 'data-reply': state };
  if (state === 'error') attrs['data-error'] = '';
  box.replaceChildren(el('span', attrs, msg));
}

/** Sends a request and returns the reply, or throws with a sentence. */
async function request(s: Sender, subject: string, body: object): Promise<Reply> {
  try {
    const m = await s.nc.request(subject, JSON.stringify(body), { timeout: 10000 });
    return m.json<Reply>();
  } catch (err) {
    const name = (err as Error).name ?? '';
    if (name === 'NoRespondersError' || /no responders/i.test(String(err))) {
      throw new Error('no daemon answers on ' + subject);
    }
    if (name === 'TimeoutError' || /timeout/i.test(String(err))) {
      throw new Error('no reply within 10 s');
    }
    throw err;
  }
}

/** Sends an ArbiterCommand for game g and shows the reply in box. */
export async function sendCommand(s: Sender, game: string, cmd: Record<string, unknown>, box: HTMLElement, button?: HTMLButtonElement): Promise<void> {
  if (button) button.disabled = true;
  showReply(box, 'pending', 'sending…');
  try {
    const r = await request(s, `${s.prefix}.arbiter.${game}.cmd`, { ...cmd, by: s.user });
    showReply(box, r.ok, r.ok ? `${cmd.cmd}: done` : `${cmd.cmd} refused: ${r.error ?? 'no reason given'}`);
  } catch (err) {
    showReply(box, false, `${cmd.cmd} failed: ${(err as Error).message}`);
  } finally {
    if (button) button.disabled = false;
  }
}

/** Enters a move (operator entry) and shows the reply. */
export async function sendMove(s: Sender, game: string, body: Record<string, unknown>, box: HTMLElement, button?: HTMLButtonElement): Promise<void> {
  if (button) button.disabled = true;
  showReply(box, 'pending', 'sending…');
  try {
    const r = await request(s, `${s.prefix}.input.${game}.move`, body);
    showReply(box, r.ok, r.ok ? `move entered as ply ${r.ply ?? '?'}` : `move refused: ${r.error ?? 'no reason given'}`);
  } catch (err) {
    showReply(box, false, `move failed: ${(err as Error).message}`);
  } finally {
    if (button) button.disabled = false;
  }
}

/** Parses a clock time typed as h:mm:ss, m:ss or seconds; NaN when bad. */
export function parseClock(s: string): number {
  const parts = s.trim().split(':');
  if (parts.length > 3 || parts.some(p => !/^\d+$/.test(p))) return NaN;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0) * 1000;
}

/** The pieces an arbiter may name on a board of the variant (the identify
 * command): FEN letters, upper case for White/Red, "" for an empty point. */
export function pieceChoices(variant: string): [string, string][] {
  const kinds: [string, string][] =
    variant === 'xiangqi'
      ? [['K', 'general'], ['A', 'advisor'], ['B', 'elephant'], ['N', 'horse'], ['R', 'chariot'], ['C', 'cannon'], ['P', 'soldier']]
      : [['K', 'king'], ['Q', 'queen'], ['R', 'rook'], ['B', 'bishop'], ['N', 'knight'], ['P', 'pawn']];
  const [first, second] = variant === 'xiangqi' ? ['Red', 'Black'] : ['White', 'Black'];
  return [
    ...kinds.map(([l, n]): [string, string] => [l, `${first} ${n} (${l})`]),
    ...kinds.map(([l, n]): [string, string] => [l.toLowerCase(), `${second} ${n} (${l.toLowerCase()})`]),
    ['', 'empty point'],
  ];
}

/** A select of the pieces of pieceChoices, named "piece". */
export function pieceSelect(variant: string): HTMLSelectElement {
  return el('select', { name: 'piece', 'aria-label': 'Piece' }, ...pieceChoices(variant).map(([v, label]) => el('option', { value: v }, label)));
}
