// Small DOM helpers: elements are built with textContent, never innerHTML,
// so names and messages from payloads cannot inject markup.

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

export function text(e: Element, s: string): void {
  if (e.textContent !== s) e.textContent = s;
}

export function attr(e: Element, name: string, value: string | null): void {
  if (value === null) e.removeAttribute(name);
  else if (e.getAttribute(name) !== value) e.setAttribute(name, value);
}

/** The move number prefix of a ply: "12." for White, "12…" for Black. */
export function moveNumber(ply: number): string {
  return ply % 2 === 1 ? `${(ply + 1) / 2}.` : `${ply / 2}…`;
}

/** A fetch of JSON that throws with the status on failure. */
export async function getJSON<T>(url: string): Promise<T> {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return (await r.json()) as T;
}
