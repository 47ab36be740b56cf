/**
 * The element with `id`, typed by the caller.
 *
 * @throws {Error} when the page lacks it: a broken page should say so at once.
 */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/**
 * A new element whose text is set with `textContent`: every string from the service, the worker or
 * the person is shown as text, never parsed as HTML.
 */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}
