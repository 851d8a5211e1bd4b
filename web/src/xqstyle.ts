// The xiangqi pieces' style, a setting of the viewer: the traditional
// characters (the default) or Latin letters. Kept in localStorage (not a
// secret); shown as html[data-xq] for the stylesheet.

import { onLang, t } from './i18n';

const STORE = 'dgtbridge.xiangqi';

function apply(v: string): void {
  document.documentElement.dataset.xq = v === 'letters' ? 'letters' : 'chars';
}

/** Wires the page's select[data-xq-style]. */
export function xiangqiStyleSwitch(): void {
  let v = 'chars';
  try {
    v = localStorage.getItem(STORE) ?? 'chars';
  } catch {
    // storage disabled
  }
  apply(v);
  const sel = document.querySelector<HTMLSelectElement>('select[data-xq-style]');
  if (!sel) return;
  const fill = () => sel.replaceChildren(new Option(t('xq.letters.chars'), 'chars', false, v !== 'letters'), new Option(t('xq.letters.letters'), 'letters', false, v === 'letters'));
  fill();
  onLang(fill);
  sel.addEventListener('change', () => {
    v = sel.value;
    apply(v);
    try {
      localStorage.setItem(STORE, v);
    } catch {
      // storage disabled: the choice lasts as long as the page
    }
  });
}
