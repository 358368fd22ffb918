import { THEME_SHADES } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { brightness, DARK_TEXT, LIGHT_TEXT, parseHex, shades, textColourFor, themeVariables } from './theme';

describe('theme maths (spec 2 §3, §9)', () => {
  it('yields nine shades 100–900 with 500 the base colour', () => {
    const scale = shades('#04b5e3');
    expect(Object.keys(scale).map(Number)).toEqual([...THEME_SHADES]);
    expect(scale[500]).toBe('#04b5e3');
  });

  it('makes lighter shades towards white and darker ones towards black, monotonically', () => {
    const scale = shades('#04b5e3');
    const b = THEME_SHADES.map((s) => brightness(scale[s]));
    for (let i = 1; i < b.length; i++) expect(b[i]).toBeLessThan(b[i - 1]);
    expect(scale[100]).toBe('#cdf0f9');
    expect(scale[900]).toBe('#01242d');
  });

  it('accepts three-digit colours', () => {
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(shades('#fff')[500]).toBe('#ffffff');
  });

  it('chooses the text colour by the 0.5 brightness threshold', () => {
    expect(textColourFor('#ffffff')).toBe(DARK_TEXT);
    expect(textColourFor('#000000')).toBe(LIGHT_TEXT);
    // #04b5e3 is just above 0.5 (0.523) → dark text; #0391b6 (its 600) is below → light text.
    expect(brightness('#04b5e3')).toBeGreaterThan(0.5);
    expect(textColourFor('#04b5e3')).toBe(DARK_TEXT);
    expect(textColourFor('#0391b6')).toBe(LIGHT_TEXT);
    // exactly at the threshold is not "brighter than": light text
    expect(textColourFor('#808080')).toBe(brightness('#808080') > 0.5 ? DARK_TEXT : LIGHT_TEXT);
  });

  it('writes a variable and a text variable per colour and shade, falling back on invalid colours', () => {
    const vars = themeVariables({ primary: '#123456', danger: 'not-a-colour' });
    expect(vars['--cc-primary-500']).toBe('#123456');
    expect(vars['--cc-primary-500-text']).toBe(LIGHT_TEXT);
    expect(vars['--cc-danger-500']).toBe('#f56565');
    expect(Object.keys(vars)).toHaveLength(6 * 9 * 2);
  });
});
