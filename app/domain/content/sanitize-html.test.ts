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
    // Entity-encoded, split and mixed-case spellings, decoded by the parser before the check.
    'jav&#x09;ascript:alert(1)',
    'jav&Tab;ascript:alert(1)',
    'java&#x0A;script:alert(1)',
    'javas&#99;ript:alert(1)',
    '&#x4A;avaScript&#x3A;alert(1)',
    '&#x6a&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3a&#x61&#x6c&#x65&#x72&#x74&#x28&#x31&#x29',
    'JAVASCRIPT:alert(1)',
    'java&#0;script:alert(1)',
    'DaTa:text/html,x',
    'data:image/png;base64,iVBORw0KGgo=',
    '//evil.example/x',
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

  it.each([
    // What the allowlist keeps once decoded: http(s) images, outside links with their rel.
    ['<img src="&#104;ttps://cdn.example/a.jpg">', '<img src="https://cdn.example/a.jpg" loading="lazy">'],
    ['<a href="HTTPS://Ailleurs.example">x</a>', '<a href="HTTPS://Ailleurs.example" rel="noopener noreferrer">x</a>'],
    // target is not on the list: the link opens here, and an outside one gets rel whatever it had.
    [
      '<a href="https://ailleurs.example" target="_blank" rel="opener">x</a>',
      '<a href="https://ailleurs.example" rel="noopener noreferrer">x</a>',
    ],
    ['<a href="/x" target="_blank">x</a>', '<a href="/x">x</a>'],
    ['<a href="mailto:contact@soovenirs.fr" target="_blank">x</a>', '<a href="mailto:contact@soovenirs.fr">x</a>'],
    // data: is refused for links and images alike.
    ['<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', '<a>x</a>'],
    ['<img src="data:image/png;base64,iVBORw0KGgo=" alt="">', '<img alt="" loading="lazy">'],
  ])('keeps what the allowlist says %j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    // SVG and MathML are foreign content, where a browser parses differently: dropped whole.
    ['<svg><a href="javascript:alert(1)"><text>x</text></a></svg>après', 'après'],
    ['<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">', ''],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>après', 'après'],
    [
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>après',
      'après',
    ],
    // noscript is raw text for a browser: an end tag of its parent inside it does not end it.
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>après', 'après'],
    ['<div><noscript></div><img src=x onerror=alert(1)></noscript>après', '<div></div>après'],
    ['<template><img src=x onerror=alert(1)><script>alert(1)</script></template>après', 'après'],
    ['<textarea><img src=x onerror=alert(1)></textarea>après', 'après'],
    ['<xmp><img src=x onerror=alert(1)></xmp>après', 'après'],
    ['<select><option><img src=x onerror=alert(1)></option></select>après', 'après'],
    ['<object data="javascript:alert(1)"><param name="x"></object><embed src="javascript:alert(1)">après', 'après'],
    ['<base href="javascript:/"><link rel="stylesheet" href="/x.css">après', 'après'],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">après', 'après'],
    ['<SCRIPT SRC=//evil.example/x.js></SCRIPT>après', 'après'],
    ['<scr<script>ipt>alert(1)</scr</script>ipt>', 'ipt&gt;alert(1)ipt&gt;'],
  ])('drops the dangerous %j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    // Unclosed tags: what is open is closed; a tag cut by the end of the text is not one.
    ['<p>ok<b>gras', '<p>ok<b>gras</b></p>'],
    ['<p>a<img src=x onerror=alert(1)', '<p>a</p>'],
    ['<a href="javascript:alert(1)', ''],
    ['<script>alert(1)', ''],
    ['<iframe src="https://evil.example">', ''],
    ['<em>a<strong>b</em>c', '<em>a<strong>b</strong></em>c'],
    // Comments go, with what they hold; they end where a browser ends them.
    ['<!-- <img src=x onerror=alert(1)> --><p>x</p>', '<p>x</p>'],
    ['<!--!><img src=x onerror=alert(1)>-->', ''],
    ['<!--><img src=x onerror=alert(1)>-->', '<img src="x" loading="lazy">--&gt;'],
    ['<p>a<!-- x --!><img src=x onerror=alert(1)>b</p>', '<p>a<img src="x" loading="lazy">b</p>'],
    ['<![CDATA[<img src=x onerror=alert(1)>]]>après', 'après'],
    ['<?xml version="1.0"?><p>x</p>', '<p>x</p>'],
    // Event handlers, however written.
    ['<p onmouseover="x()" ONCLICK="y()" onfocus=z()>x</p>', '<p>x</p>'],
    ['<p/onclick=x()>x</p>', '<p>x</p>'],
    ['<img src="/a.jpg" onerror="x()" onload=y()>', '<img src="/a.jpg" loading="lazy">'],
    ['<h1 id="a" onclick="x()">T</h1>', '<h2 id="a">T</h2>'],
    // style is not on the list, so neither expression() nor url(javascript:) can get through.
    ['<p style="width: expression(alert(1))">x</p>', '<p>x</p>'],
    ['<p style="background:url(javascript:alert(1))">x</p>', '<p>x</p>'],
    // Nor srcset, class, data-* or aria-*.
    ['<img src="/a.jpg" srcset="/a-2x.jpg 2x">', '<img src="/a.jpg" loading="lazy">'],
    ['<div id="x" class="y" data-x="1" aria-label="z">d</div>', '<div id="x">d</div>'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    ['a<br/>b<hr />c', 'a<br>b<hr>c'],
    ['<ol reversed start="3"><li>x</li></ol>', '<ol reversed start="3"><li>x</li></ol>'],
    [
      '<table><tr><th scope="col">t</th><td colspan="2" rowspan=1 onclick=x>c</td></tr></table>',
      '<table><tr><th scope="col">t</th><td colspan="2" rowspan="1">c</td></tr></table>',
    ],
    ['<time datetime="2026-11-27">27/11/2026</time>', '<time datetime="2026-11-27">27/11/2026</time>'],
    [
      '<a href="/a" hreflang="fr" lang="fr" dir="ltr" title="t" id="i">x</a>',
      '<a href="/a" hreflang="fr" lang="fr" dir="ltr" title="t" id="i">x</a>',
    ],
    // Text references are decoded and only what must be is escaped again; the page shows the same.
    ['<p>&eacute;t&eacute; &amp; &lt;b&gt;</p>', '<p>été &amp; &lt;b&gt;</p>'],
  ])('writes HTML back as HTML %j -> %j', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });
});
