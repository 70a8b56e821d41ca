import { describe, expect, it } from 'vitest';
import { isSafeUrl, sanitizeHtml } from './sanitize-html';

/** How an attribute value is written back: decoded once by the parser, escaped once. */
function escaped(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

describe('sanitizeHtml', () => {
  it.each([
    ['<p>Bonjour <strong>vous</strong></p>', '<p>Bonjour <strong>vous</strong></p>'],
    ['<p onclick="steal()">x</p>', '<p>x</p>'],
    ['<script>alert(1)</script><p>ok</p>', '<p>ok</p>'],
    ['<style>p{}</style><iframe src="https://evil.example"></iframe>après', 'après'],
    ['<a href="javascript:alert(1)">lien</a>', '<a>lien</a>'],
    ['<a href="java\tscript:alert(1)">lien</a>', '<a>lien</a>'],
    [
      '<a href="https://ailleurs.example" target="_blank">lien</a>',
      '<a href="https://ailleurs.example" rel="noopener noreferrer">lien</a>',
    ],
    ['<a href="/contact" rel="nofollow">contact</a>', '<a href="/contact" rel="nofollow">contact</a>'],
    ['<img src="data:image/svg+xml,..." onerror="x()">', '<img loading="lazy">'],
    [
      '<img src="/a.jpg" alt="Photo" width="10" height="8">',
      '<img src="/a.jpg" alt="Photo" width="10" height="8" loading="lazy">',
    ],
    ['<h1>Titre</h1>', '<h2>Titre</h2>'],
    ['<div><span>non fermé', '<div><span>non fermé</span></div>'],
    ['<em>a</strong></em>', '<em>a</em>'],
    ['<!-- commentaire --><p>x</p>', '<p>x</p>'],
    ['<form action="/x"><input name="a"><button>OK</button></form>suite', 'suite'],
    ['<svg><script>alert(1)</script></svg><p>ok</p>', '<p>ok</p>'],
    ['<p title="a&quot;b" style="color:red">x</p>', '<p title="a&quot;b">x</p>'],
    ['a < b et c > d', 'a &lt; b et c &gt; d'],
    ['<custom-tag>texte</custom-tag>', 'texte'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it('accepts only http(s), relative, mailto and tel links', () => {
    expect(isSafeUrl('https://www.cnil.fr', 'href')).toBe(true);
    expect(isSafeUrl('/services', 'href')).toBe(true);
    expect(isSafeUrl('mailto:contact@soovenirs.fr', 'href')).toBe(true);
    expect(isSafeUrl('mailto:contact@soovenirs.fr', 'src')).toBe(false);
    expect(isSafeUrl('//evil.example/x.js', 'src')).toBe(false);
    expect(isSafeUrl(' JavaScript:alert(1)', 'href')).toBe(false);
    expect(isSafeUrl('data:text/html,x', 'href')).toBe(false);
  });

  // Every way a browser reads "javascript:" (or another script scheme) out of an attribute.
  const schemes = [
    'javascript&colon;alert(1)',
    'javascript&#58;alert(1)',
    'javascript&#58alert(1)',
    'javascript&#0000058;alert(1)',
    'javascript&#x3a;alert(1)',
    'javascript&#X3A;alert(1)',
    'javascript&#x0003A;alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
    'java&Tab;script:alert(1)',
    'java&NewLine;script:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\u0000script:alert(1)',
    ' \u0001javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'javascript%3Aalert(1)',
    '%6A%61%76%61%73%63%72%69%70%74%3Aalert(1)',
    'vbscript:msgbox(1)',
    'VBScript&colon;msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data&colon;image/svg+xml;base64,PHN2Zz4=',
    'livescript:alert(1)',
    '\\\\evil.example/x',
    '/\\evil.example/x',
  ];

  it.each(schemes)('refuses href=%j', (url) => {
    for (const quote of ['"', "'"]) {
      const html = `<a href=${quote}${url.replaceAll(quote, '&quot;')}${quote}>lien</a>`;
      expect(sanitizeHtml(html)).toBe('<a>lien</a>');
    }
    expect(sanitizeHtml(`<img src="${url.replaceAll('"', '&quot;')}">`)).toBe('<img loading="lazy">');
  });

  it.each([
    // Attributes that could carry a URL to run are not on the allowlist at all.
    ['<a xlink:href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="/ok" formaction="javascript:alert(1)" action="javascript:alert(1)">x</a>', '<a href="/ok">x</a>'],
    [
      '<img src="/a.jpg" srcset="javascript:alert(1) 1x" poster="javascript:x" background="javascript:x">',
      '<img src="/a.jpg" loading="lazy">',
    ],
    ['<a href=javascript&colon;alert(1)>sans guillemets</a>', '<a>sans guillemets</a>'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    ['<a href="/recherche?page=2&amp;tri=prix">x</a>', '<a href="/recherche?page=2&amp;tri=prix">x</a>'],
    // "&copy=" in a query string is not a reference (HTML's rule for attributes): kept as typed.
    ['<a href="/?a=1&copy=2">x</a>', '<a href="/?a=1&amp;copy=2">x</a>'],
    ['<a href="https&#58;//www.cnil.fr">CNIL</a>', '<a href="https://www.cnil.fr" rel="noopener noreferrer">CNIL</a>'],
    ['<a href="mailto&colon;contact@soovenirs.fr">écrire</a>', '<a href="mailto:contact@soovenirs.fr">écrire</a>'],
    ['<a href="/contact#horaires:samedi">x</a>', '<a href="/contact#horaires:samedi">x</a>'],
    [
      '<img src="/a.jpg" alt="L&eacute;a &amp; Paul &lt;3">',
      '<img src="/a.jpg" alt="Léa &amp; Paul &lt;3" loading="lazy">',
    ],
    // Decoded once, escaped once: "&amp;quot;" stays the text "&quot;", it does not become a quote.
    ['<p title="&amp;quot; onmouseover=x()">t</p>', '<p title="&amp;quot; onmouseover=x()">t</p>'],
    // Not references for a browser either ("colon" has no legacy form; "3aa" is one hex number;
    // "&amp;colon;" is the text "&colon;"): relative paths, written back so that they stay so.
    ['<a href="javascript&colon alert(1)">x</a>', '<a href="javascript&amp;colon alert(1)">x</a>'],
    ['<a href="javascript&#x3aalert(1)">x</a>', '<a href="javascript\u03AAlert(1)">x</a>'],
    ['<a href="javascript&amp;colon;alert(1)">x</a>', '<a href="javascript&amp;colon;alert(1)">x</a>'],
  ])('keeps the safe %j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    ['&colon;', ':'],
    ['&colon', '&colon'],
    ['&#58;', ':'],
    ['&#58', ':'],
    ['&#x3A;', ':'],
    ['&#0000000058;', ':'],
    ['&#0;', '\uFFFD'],
    ['&#x110000;', '\uFFFD'],
    ['&#xD800;', '\uFFFD'],
    ['&#128;', '€'],
    ['&amp', '&'],
    ['&ampx', '&ampx'],
    ['&amp=', '&amp='],
    ['&notin;', '∉'],
    ['&notit;', '&notit;'],
    ['&fjlig;', 'fj'],
    ['&inconnu;', '&inconnu;'],
    ['&#;', '&#;'],
  ])('decodes the attribute %j as a browser: %j', (value, decoded) => {
    expect(sanitizeHtml(`<p title="${value}">x</p>`)).toBe(`<p title="${escaped(decoded)}">x</p>`);
  });
});
