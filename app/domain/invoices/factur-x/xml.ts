/*
 * A tiny XML writer for the Factur-X document: elements, attributes and escaped text, nothing
 * else. The CII has a fixed element order (the XSD checks it), so the mapping writes the tree in
 * order and this only serialises it.
 */

export interface XmlElement {
  name: string;
  attributes?: Readonly<Record<string, string>>;
  children: ReadonlyArray<XmlElement | string>;
}

/** An element; children that are null, undefined or false are left out (optional fields). */
export function el(
  name: string,
  attributesOrChild?: Readonly<Record<string, string>> | XmlChild,
  ...children: XmlChild[]
): XmlElement {
  const isAttributes =
    attributesOrChild !== null &&
    typeof attributesOrChild === 'object' &&
    !Array.isArray(attributesOrChild) &&
    !('name' in attributesOrChild && 'children' in attributesOrChild);
  const all = isAttributes ? children : [attributesOrChild as XmlChild, ...children];
  return {
    name,
    attributes: isAttributes ? (attributesOrChild as Record<string, string>) : undefined,
    children: all
      .flat()
      .filter((child): child is XmlElement | string => child !== null && child !== undefined && child !== false),
  };
}

export type XmlChild = XmlElement | string | null | undefined | false | XmlChild[];

/** Drops the control characters XML 1.0 does not allow (all but tab and line breaks). */
function withoutControls(value: string): string {
  return [...value].filter((char) => char >= ' ' || char === '\t' || char === '\n' || char === '\r').join('');
}

function escapeXml(value: string): string {
  return withoutControls(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function serialise(element: XmlElement, depth: number): string {
  const indent = '  '.repeat(depth);
  const attributes = Object.entries(element.attributes ?? {})
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  if (element.children.length === 0) return `${indent}<${element.name}${attributes}/>`;
  if (element.children.every((child) => typeof child === 'string')) {
    return `${indent}<${element.name}${attributes}>${escapeXml(element.children.join(''))}</${element.name}>`;
  }
  const inner = element.children
    .map((child) => (typeof child === 'string' ? `${indent}  ${escapeXml(child)}` : serialise(child, depth + 1)))
    .join('\n');
  return `${indent}<${element.name}${attributes}>\n${inner}\n${indent}</${element.name}>`;
}

/** The document with its XML declaration, UTF-8. */
export function xmlDocument(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialise(root, 0)}\n`;
}
