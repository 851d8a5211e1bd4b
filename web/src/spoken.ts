// Moves as words and in the notations a listener picks (the spectators'
// page's announcements): SAN; the spoken long form of the blind players'
// announcements ("Knight g1 to f3", German "Springer Gustav eins – Felix
// drei", drops "Knight dropped on f3"); xiangqi in WXF, the Vietnamese
// notation, ICCS, or spoken from the Vietnamese notation ("Cannon 2
// traverses to 5", "Pháo 2 bình 5"). Pure functions of the payload's san,
// uci and notation fields.

import { t, type Key } from './i18n';

export type Notation = 'spoken' | 'san' | 'wxf' | 'vi' | 'iccs';

/** The notations offered for a variant, the first the default. */
export function notations(variant: string): Notation[] {
  return variant === 'xiangqi' ? ['spoken', 'vi', 'wxf', 'iccs'] : ['spoken', 'san'];
}

function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** A piece kind (FEN letter, any case) named in the page's language. */
export function kindName(letter: string, xiangqi: boolean): string {
  return t(((xiangqi ? 'xq.piece.' : 'piece.') + letter.toLowerCase()) as Key);
}

/** A square spoken: "e4", German "Eva vier". */
export function saySquare(sq: string): string {
  const files = t('say.files').split(' ');
  const ranks = t('say.ranks').split(' ');
  const f = sq.charCodeAt(0) - 97;
  const r = Number(sq.slice(1)) - 1;
  if (files.length === 8 && ranks.length === 8 && f >= 0 && f < 8 && r >= 0 && r < 8) return files[f] + ' ' + ranks[r];
  return sq;
}

/** A chess move (SAN and UCI of the payload) in words. */
export function sayChess(san: string, uci: string): string {
  const s = san.replace(/[!?]+$/, '');
  const parts: string[] = [];
  const drop = /^([NBRQK])?@([a-h][1-8])/.exec(s) ?? /^([NBRQK])?@([a-h][1-8])/.exec(uci);
  const removal = /^-([a-h][1-8])/.exec(s) ?? /^-([a-h][1-8])/.exec(uci);
  if (/^(O-O-O|0-0-0)/.test(s)) parts.push(t('say.long'));
  else if (/^(O-O|0-0)/.test(s)) parts.push(t('say.short'));
  else if (drop) parts.push(t('say.drop', { piece: cap(kindName(drop[1] ?? 'P', false)), square: saySquare(drop[2]) }));
  else if (removal) parts.push(t('say.remove', { piece: cap(kindName('P', false)), square: saySquare(removal[1]) }));
  else if (/^[a-h][1-8][a-h][1-8]/.test(uci)) {
    const kind = /^[NBRQK]/.test(s) ? s[0] : 'P';
    const capture = s.includes('x');
    parts.push([cap(kindName(kind, false)), saySquare(uci.slice(0, 2)), capture ? t('say.takes') : t('say.to'), saySquare(uci.slice(2, 4))].join(' '));
    const promo = /=([NBRQ])/.exec(s)?.[1] ?? (uci.length === 5 ? uci[4] : '');
    if (promo) parts.push(t('say.promotes', { piece: cap(kindName(promo, false)) }));
  } else {
    return san || uci;
  }
  if (s.endsWith('#')) parts.push(t('say.mate'));
  else if (s.endsWith('+')) parts.push(t('say.check'));
  return parts.join(t('say.sep'));
}

const vnKinds: [string, string][] = [['Tg', 'k'], ['S', 'a'], ['T', 'b'], ['X', 'r'], ['P', 'c'], ['M', 'n'], ['B', 'p']];

/** A xiangqi move in words, from its Vietnamese notation (e.g. P2-5,
 * Xt.3); undefined when the notation is not of that form. */
export function sayXiangqi(vn: string): string | undefined {
  const k = vnKinds.find(([l]) => vn.startsWith(l));
  if (!k) return undefined;
  const m = /^([1-9tsg])([.\/-])([1-9])([+#]?)$/.exec(vn.slice(k[0].length));
  if (!m) return undefined;
  const which = m[1] === 't' ? t('say.xq.front') : m[1] === 's' ? t('say.xq.rear') : m[1] === 'g' ? t('say.xq.middle') : m[1];
  const op = m[2] === '.' ? t('say.xq.advance') : m[2] === '/' ? t('say.xq.retreat') : t('say.xq.traverse');
  let out = `${cap(kindName(k[1], true))} ${which} ${op} ${m[3]}`;
  if (m[4] === '#') out += t('say.sep') + t('say.mate');
  else if (m[4] === '+') out += t('say.sep') + t('say.check');
  return out;
}

/** One move in the notation n: san and uci of the payload, notation its
 * Vietnamese xiangqi notation. */
export function moveText(n: Notation, variant: string, san: string, uci: string, notation?: string): string {
  if (variant === 'xiangqi') {
    switch (n) {
      case 'spoken':
        return (notation && sayXiangqi(notation)) || san || uci;
      case 'vi':
        return notation || san || uci;
      case 'iccs':
        return uci;
      default:
        return san || uci;
    }
  }
  return n === 'spoken' ? sayChess(san, uci) : san || uci;
}

/** The move shown on a board card and in the move list: SAN, and for
 * xiangqi the notation of the page's language (Vietnamese in Vietnamese,
 * WXF otherwise). */
export function shownMove(variant: string, lang: string, san: string, uci: string, notation?: string): string {
  if (variant === 'xiangqi' && lang === 'vi' && notation) return notation;
  return san || uci;
}
