// Sign-in of the staff pages (/arbiter, /hall): a user and a password from
// the form, or from the URL fragment #user=…&password=… (a fragment is
// never sent to a server). A password in the query string (?password=) is
// refused: it has already travelled to the server and into its logs. The
// password is kept only by the NATS client of the open page: nothing is
// written to localStorage or sessionStorage, and the fragment leaves the
// address bar at once.

export interface Credentials {
  user: string;
  password: string;
}

/** What the page's address asks for: credentials from the fragment, a
 * refused query string (the error key to show), or nothing. The address
 * bar is cleaned of both. */
export function fromAddress(): { creds?: Credentials; refused?: boolean } {
  const q = new URLSearchParams(location.search);
  const h = new URLSearchParams(location.hash.replace(/^#/, ''));
  const keep = new URLSearchParams(location.search);
  keep.delete('user');
  keep.delete('password');
  const search = keep.toString();
  const clean = location.pathname + (search ? '?' + search : '');
  if (q.has('password')) {
    history.replaceState(null, '', clean);
    return { refused: true };
  }
  if (h.has('user')) {
    history.replaceState(null, '', clean);
    return { creds: { user: h.get('user') ?? '', password: h.get('password') ?? '' } };
  }
  if (q.has('user')) history.replaceState(null, '', clean);
  return {};
}

/** Reads the form's user and password, and empties the password field (the
 * NATS client keeps its copy; the page none). */
export function fromForm(form: HTMLFormElement): Credentials {
  const f = new FormData(form);
  const pw = form.elements.namedItem('password') as HTMLInputElement | null;
  if (pw) pw.value = '';
  return { user: String(f.get('user') ?? ''), password: String(f.get('password') ?? '') };
}

/** Signs out: closes the connection and reloads the page without fragment
 * or credentials (the browser forgets the form's fields). */
export function signOut(close: () => Promise<void> | void): void {
  void Promise.resolve(close()).finally(() => location.replace(location.pathname + location.search));
}

/** Removes what earlier versions of the pages stored (a password under
 * "Keep me signed in"). */
export function forgetStored(): void {
  try {
    localStorage.removeItem('dgtbridge.arbiter');
  } catch {
    // storage disabled: nothing stored either
  }
}

/** Opens the sign-in form: its fields are disabled in the HTML until the
 * page's script handles the submission, so a form sent before (by a quick
 * Enter) cannot reach the server with the password in its address. The
 * form gets data-ready. */
export function readyForm(form: HTMLFormElement): void {
  for (const f of form.querySelectorAll('fieldset')) f.disabled = false;
  form.setAttribute('data-ready', '');
}
