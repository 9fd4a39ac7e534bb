import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_MIME, errorTexts } from '../notebookOutputs';

const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

test('an error output gives its stack, ANSI colours kept for the server', () => {
  const stack = '\x1b[31mTypeError\x1b[39m Traceback (most recent call last)\nCell In[2], line 2';
  const items = [
    { mime: 'text/plain', data: encode('not an error') },
    { mime: ERROR_MIME, data: encode({ name: 'TypeError', message: 'bad', stack }) },
  ];
  assert.deepEqual(errorTexts(items), [stack]);
});

test('an error without a stack gives its name and message; broken items give nothing', () => {
  const items = [
    { mime: ERROR_MIME, data: encode({ name: 'ValueError', message: 'x must be 1-D' }) },
    { mime: ERROR_MIME, data: new TextEncoder().encode('{not json') },
    { mime: ERROR_MIME, data: encode({ stack: '   ' }) },
  ];
  assert.deepEqual(errorTexts(items), ['ValueError: x must be 1-D']);
});
