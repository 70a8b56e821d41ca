import { describe, expect, it } from 'vitest';
import { isSafeUrl, sanitizeHtml } from './sanitize-html';

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
});
