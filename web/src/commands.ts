// Arbiter commands (docs/contract.md §3.1): <p>.arbiter.<g>.cmd and
// <p>.input.<g>.move requests, each from a button with data-cmd, the reply
// shown next to it (an error as an element with data-error).

import type { NatsConnection } from '@nats-io/nats-core';
import { el } from './dom';
import { t, type Key } from './i18n';

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
      throw new Error(t('cmd.noresponders', { subject }));
    }
    if (name === 'TimeoutError' || /timeout/i.test(String(err))) {
      throw new Error(t('cmd.timeout'));
    }
    throw err;
  }
}

/** Sends an ArbiterCommand for game g and shows the reply in box. */
export async function sendCommand(s: Sender, game: string, cmd: Record<string, unknown>, box: HTMLElement, button?: HTMLButtonElement): Promise<void> {
  if (button) button.disabled = true;
  showReply(box, 'pending', t('cmd.sending'));
  const name = String(cmd.cmd);
  try {
    const r = await request(s, `${s.prefix}.arbiter.${game}.cmd`, { ...cmd, by: s.user });
    showReply(box, r.ok, r.ok ? t('cmd.done', { cmd: name }) : t('cmd.refused', { cmd: name, err: r.error || t('cmd.noreason') }));
  } catch (err) {
    showReply(box, false, t('cmd.failed', { cmd: name, err: (err as Error).message }));
  } finally {
    if (button) button.disabled = false;
  }
}

/** Enters a move (operator entry) and shows the reply. */
export async function sendMove(s: Sender, game: string, body: Record<string, unknown>, box: HTMLElement, button?: HTMLButtonElement): Promise<void> {
  if (button) button.disabled = true;
  showReply(box, 'pending', t('cmd.sending'));
  try {
    const r = await request(s, `${s.prefix}.input.${game}.move`, body);
    showReply(box, r.ok, r.ok ? t('cmd.move.done', { ply: r.ply ?? '?' }) : t('cmd.move.refused', { err: r.error || t('cmd.noreason') }));
  } catch (err) {
    showReply(box, false, t('cmd.move.failed', { err: (err as Error).message }));
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
  const xq = variant === 'xiangqi';
  const letters = xq ? 'KABNRCP' : 'KQRBNP';
  return [
    ...[...letters].map((l): [string, string] => [l, `${pieceName(l, variant)} (${l})`]),
    ...[...letters].map((l): [string, string] => [l.toLowerCase(), `${pieceName(l.toLowerCase(), variant)} (${l.toLowerCase()})`]),
    ['', t('piece.empty')],
  ];
}

/** The name of a piece (FEN letter, upper case for White/Red) in the
 * page's language: "white knight", "red chariot". */
export function pieceName(letter: string, variant: string): string {
  const xq = variant === 'xiangqi';
  const white = letter === letter.toUpperCase();
  const side = t(white ? (xq ? 'side.red.adj' : 'side.white.adj') : 'side.black.adj');
  const kind = t(((xq ? 'xq.piece.' : 'piece.') + letter.toLowerCase()) as Key);
  return t('piece.named', { side, kind });
}

/** A select of the pieces of pieceChoices, named "piece". */
export function pieceSelect(variant: string): HTMLSelectElement {
  return el('select', { name: 'piece', 'aria-label': t('arb.piece') }, ...pieceChoices(variant).map(([v, label]) => el('option', { value: v }, label)));
}
