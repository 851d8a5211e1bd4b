// The staff pages' connection (/arbiter, /hall): the daemon's page
// configuration, then NATS over websocket as the signed-in user, with the
// arbiter rights (the alert subjects) found out from the server's
// permissions. The connection state and errors are shown in #connection
// and #errors, in the page's language.

import { wsconnect, type Msg, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { attr, el, getJSON, text } from './dom';
import { t, type Key } from './i18n';
import type { Alert, PageConfig } from './types';

const conn = () => document.getElementById('connection')!;
const errors = () => document.getElementById('errors')!;

/** Shows an error (an element with data-error, §5.1). */
export function showError(msg: string): void {
  errors().replaceChildren(el('p', { 'data-error': '' }, msg));
}

export function clearErrors(): void {
  errors().replaceChildren();
}

export type ConnState = 'signed-out' | 'connecting' | 'live' | 'reconnecting' | 'closed';

/** Sets #connection's data-connection and its text. */
export function setConn(state: ConnState): void {
  attr(conn(), 'data-connection', state);
  attr(conn(), 'data-i18n', 'conn.' + state);
  text(conn(), t(('conn.' + state) as Key));
}

export interface Staff {
  nc: NatsConnection;
  cfg: PageConfig;
  user: string;
  /** Whether the user has the arbiter subjects (alerts, commands). */
  arbiter: boolean;
}

function wsURL(cfg: PageConfig): URL {
  const url = new URL(cfg.websocket, location.href);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  return url;
}

async function dial(url: URL, user: string, password: string, name: string, inboxPrefix?: string): Promise<NatsConnection> {
  return wsconnect({ servers: url.toString(), user, pass: password, name, inboxPrefix, maxReconnectAttempts: -1, reconnectTimeWait: 2000, ignoreAuthErrorAbort: false });
}

/** Subscribes to the alert subjects; resolves false when the server's
 * permissions refuse them (not an arbiter). */
async function alertRights(c: NatsConnection, prefix: string, onAlert: (a: Alert) => void): Promise<{ ok: boolean; sub: Subscription; denied: string }> {
  let denied = '';
  const sub = c.subscribe(`${prefix}.arbiter.*.*.*.alert`, {
    callback: (err, m) => {
      if (err) {
        denied = String(err.message ?? err);
        return;
      }
      if (!denied) onAlert(m.json<Alert>());
    },
  });
  await c.flush().catch(() => undefined);
  return { ok: !denied && !sub.isClosed(), sub, denied };
}

/** Signs in: on success the connection (its state shown live in
 * #connection), else undefined with the reason in #errors. needArbiter
 * refuses a user without the arbiter subjects; otherwise such a user
 * (an organiser) connects again with the ordinary inbox prefix, which the
 * arbiters' one is denied to. onAlert gets every alert published while the
 * page is open (arbiters only). */
export async function connectStaff(user: string, password: string, page: string, needArbiter: boolean, onAlert: (a: Alert) => void): Promise<Staff | undefined> {
  clearErrors();
  setConn('connecting');
  signingOut = false;
  let cfg: PageConfig;
  try {
    cfg = await getJSON<PageConfig>('api/config.json');
  } catch (err) {
    setConn('signed-out');
    showError(t('err.daemon', { err: String(err) }));
    return undefined;
  }
  if (!cfg.websocket) {
    setConn('signed-out');
    showError(t('err.nows'));
    return undefined;
  }
  const url = wsURL(cfg);
  let c: NatsConnection;
  try {
    c = await dial(url, user, password, 'dgtbridge ' + page, '_INBOX_arbiter');
  } catch (err) {
    setConn('signed-out');
    const auth = /authoriz|authentic/i.test(String(err));
    showError(auth ? t('err.refused', { user }) : t('err.unreachable', { url: String(url), err: String(err) }));
    return undefined;
  }
  const rights = await alertRights(c, cfg.prefix, onAlert);
  let arbiter = rights.ok;
  if (!arbiter) {
    await c.close().catch(() => undefined);
    if (needArbiter) {
      setConn('signed-out');
      showError(t('err.notarbiter', { user, err: rights.denied || t('err.denied') }));
      return undefined;
    }
    try {
      c = await dial(url, user, password, 'dgtbridge ' + page);
    } catch (err) {
      setConn('signed-out');
      showError(t('err.unreachable', { url: String(url), err: String(err) }));
      return undefined;
    }
    arbiter = false;
  }
  setConn('live');
  const nc = c;
  void (async () => {
    for await (const st of nc.status()) {
      if (st.type === 'disconnect') setConn('reconnecting');
      else if (st.type === 'reconnect') setConn('live');
    }
  })();
  void nc.closed().then(err => {
    if (!signingOut) {
      setConn('closed');
      showError(t('err.closed', { err: err ? String(err) : '' }));
    }
  });
  return { nc, cfg, user, arbiter };
}

let signingOut = false;

/** Marks the coming close as the user's (no error shown). */
export function closing(): void {
  signingOut = true;
}

/** Direct get of the last message on a subject of a stream ($JS.API.DIRECT.GET). */
export async function lastMsg(c: NatsConnection, stream: string, subject: string): Promise<Msg | undefined> {
  try {
    const m = await c.request(`$JS.API.DIRECT.GET.${stream}.${subject}`, undefined, { timeout: 5000 });
    return m.headers?.code && m.headers.code >= 300 ? undefined : m.data.length ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The alerts of the last 12 hours from the ALERTS stream, oldest first
 * (none without the arbiter rights). */
export async function recentAlerts(c: NatsConnection, prefix: string): Promise<Alert[]> {
  const since = new Date(Date.now() - 12 * 3600 * 1000).toISOString();
  const got: Alert[] = [];
  try {
    const it = await c.requestMany(`$JS.API.DIRECT.GET.${prefix.toUpperCase()}_ALERTS`, JSON.stringify({ start_time: since, batch: 1000, next_by_subj: `${prefix}.arbiter.*.*.*.alert` }), { strategy: 'sentinel', maxWait: 5000 });
    for await (const m of it) {
      if (!m.data.length) break;
      got.push(m.json<Alert>());
    }
  } catch {
    // no stream or no access: only new alerts are shown
  }
  return got.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
