// The pages' languages (English, German, Vietnamese): every string a page
// shows comes from the tables in i18n/*.json, keyed alike (the type below
// makes a table that lacks a key a compile error; web's Go test says which).
// The language is ?lang= in the address, else the one chosen with the
// switch (kept in localStorage: not a secret), else the browser's.

import en from './i18n/en.json';
import de from './i18n/de.json';
import vi from './i18n/vi.json';

export type Key = keyof typeof en;
export type Lang = 'en' | 'de' | 'vi';
export const langs: Lang[] = ['en', 'de', 'vi'];

const tables: Record<Lang, Record<Key, string>> = { en, de, vi };
const STORE = 'dgtbridge.lang';

function pick(): Lang {
  const q = new URLSearchParams(location.search).get('lang');
  if (q && (langs as string[]).includes(q)) return q as Lang;
  try {
    const s = localStorage.getItem(STORE);
    if (s && (langs as string[]).includes(s)) return s as Lang;
  } catch {
    // storage disabled
  }
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split('-')[0];
    if ((langs as string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

export let lang: Lang = pick();
document.documentElement.lang = lang;

/** The string of key in the page's language, {name} filled from params. */
export function t(key: Key, params: Record<string, string | number> = {}): string {
  const s = tables[lang][key] ?? tables.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, n: string) => (n in params ? String(params[n]) : m));
}

/** Whether key is in the tables (for keys made from payload values). */
export function has(key: string): key is Key {
  return key in tables.en;
}

/** Fills the static parts of the page: data-i18n (text) and
 * data-i18n-<attr> (aria-label, title, placeholder). */
export function applyStatic(root: ParentNode = document): void {
  for (const e of root.querySelectorAll<HTMLElement>('[data-i18n]')) e.textContent = t(e.dataset.i18n as Key);
  for (const a of ['aria-label', 'title', 'placeholder']) {
    for (const e of root.querySelectorAll<HTMLElement>(`[data-i18n-${a}]`)) e.setAttribute(a, t(e.getAttribute(`data-i18n-${a}`) as Key));
  }
}

const listeners: (() => void)[] = [];

/** Registers what a page redraws when the language changes. */
export function onLang(fn: () => void): void {
  listeners.push(fn);
}

/** Changes the language now: <html lang>, the static texts, whatever
 * registered with onLang, and ?lang= in the address (so a reload or a
 * copied link keeps it). */
export function setLang(l: Lang): void {
  lang = l;
  document.documentElement.lang = l;
  try {
    localStorage.setItem(STORE, l);
  } catch {
    // storage disabled: the address keeps it
  }
  const u = new URL(location.href);
  u.searchParams.set('lang', l);
  history.replaceState(history.state, '', u.pathname + u.search + u.hash);
  applyStatic();
  for (const fn of listeners) fn();
}

/** Wires the page's language switch (a select with data-lang-switch). */
export function languageSwitch(): void {
  applyStatic();
  for (const s of document.querySelectorAll<HTMLSelectElement>('select[data-lang-switch]')) {
    s.replaceChildren(...langs.map(l => new Option(tables[l]['lang.name'], l, false, l === lang)));
    s.addEventListener('change', () => setLang(s.value as Lang));
  }
}
