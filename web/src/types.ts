// Payloads the pages read: the daemon's web API (broadcast/httpweb.go) and
// the NATS payloads of docs/contract.md §3.

export interface Pockets {
  white: string;
  black: string;
}

export interface LastMove {
  ply: number;
  san: string;
  uci: string;
  notation?: string;
}

export interface ClockView {
  white_ms: number;
  black_ms: number;
  running: 'white' | 'black' | 'none';
  /** How long ago (server time) the reading became public. */
  age_ms: number;
}

/** One board of GET api/public.json and of each "board" event. */
export interface BoardData {
  game: string;
  round: number;
  board: number;
  board_id?: string;
  white: string;
  black: string;
  white_fide_id?: string;
  black_fide_id?: string;
  white_team?: string;
  black_team?: string;
  variant: string;
  fen: string;
  ply: number;
  revision: number;
  last: LastMove | null;
  clock: ClockView | null;
  result: string;
  termination?: string;
  provisional?: boolean;
  pockets?: Pockets;
  partner?: string;
  status: string;
}

export interface EventInfo {
  id: string;
  name: string;
  site: string;
}

export interface Snapshot {
  now: number;
  event: EventInfo;
  boards: BoardData[];
}

export interface Ply {
  ply: number;
  san: string;
  uci: string;
  fen: string;
  notation?: string;
  pockets?: Pockets;
}

/** GET api/public/game/<g>.json */
export interface GameHistory {
  board: BoardData;
  start_fen: string;
  plies: Ply[];
}

/** GET api/config.json */
export interface PageConfig {
  event: EventInfo;
  prefix: string;
  websocket: string;
  boards: { game: string; board: number; board_id?: string; variant: string; start_fen: string }[];
}

/** §3.2 MoveEvent (live copy), with the team-drop fields. */
export interface MoveEvent {
  game: string;
  ply: number;
  san: string;
  uci: string;
  fen: string;
  clock: { white_ms: number; black_ms: number } | null;
  emt_ms: number;
  at: string;
  revision: number;
  notation?: string;
  pockets?: Pockets;
  partner?: string;
}

export interface Correction {
  game: string;
  ply: number;
  fen: string;
  moves: string[];
  reason: string;
  at: string;
  revision: number;
}

export interface ClockEvent {
  game: string;
  white_ms: number;
  black_ms: number;
  running: 'white' | 'black' | 'none';
  at: string;
}

export interface Result {
  game: string;
  result: string;
  termination: string;
  article: string;
  provisional: boolean;
  at: string;
}

export interface GameState {
  game: string;
  event: string;
  round: number;
  board: number;
  white: string;
  black: string;
  variant: string;
  fen: string;
  moves: string[] | null;
  san: string[] | null;
  clock: { white_ms: number; black_ms: number } | null;
  result: string;
  status: string;
  revision: number;
  updated_at: string;
  pockets?: Pockets;
  partner?: string;
  notation?: string[];
}

export interface Evidence {
  at: string;
  square?: string;
  piece?: string;
  event: string;
}

/** §3.4 Alert */
export interface Alert {
  id: string;
  game: string;
  kind: string;
  severity: 'crit' | 'warn' | 'info';
  article: string;
  side?: string;
  ply: number;
  message: string;
  proposal?: Record<string, unknown>;
  evidence?: Evidence[];
  at: string;
}

export interface BoardStatus {
  board_id: string;
  port: string;
  connected: boolean;
  bus_address: number;
  version: string;
  serial: string;
  clock: string;
  last_seen: string | null;
  error: string;
  at: string;
}
