import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keepTail, looksLikeTraceback, terminalToText } from '../traceback';

// What shell integration's execution.read() yields: OSC 633 marks, CSI colours, CRLF.
const RAW =
  '\x1b]633;C\x07' +
  'epoch 1\r\n' +
  '\x1b[35mTraceback (most recent call last):\x1b[0m\r\n' +
  '  File \x1b[35m"/proj/demo.py"\x1b[0m, line \x1b[35m14\x1b[0m, in \x1b[35mbody\x1b[0m\r\n' +
  '    ref = jax.new_ref(x)\r\n' +
  '\x1b[1;35mValueError\x1b[0m: \x1b[35mEager shard_map cannot return a `jax.Ref`.\x1b[0m\r\n' +
  '\x1b]633;D;1\x1b\\';

test('terminal data becomes the plain text a person sees', () => {
  assert.equal(
    terminalToText(RAW),
    [
      'epoch 1',
      'Traceback (most recent call last):',
      '  File "/proj/demo.py", line 14, in body',
      '    ref = jax.new_ref(x)',
      'ValueError: Eager shard_map cannot return a `jax.Ref`.',
      '',
    ].join('\n'),
  );
});

test('carriage-return redraws keep what stays on screen', () => {
  assert.equal(terminalToText(' 10%|#   \r 50%|#####\r100%|##########\r\nTraceback'), '100%|##########\nTraceback');
});

test('tracebacks are recognised; ordinary failures are not', () => {
  assert.ok(looksLikeTraceback(terminalToText(RAW)));
  assert.ok(looksLikeTraceback('E       ValueError: bad\n'));
  assert.ok(looksLikeTraceback('  File "x.py", line 3, in f\nKeyError: 1'));
  assert.ok(!looksLikeTraceback('make: *** [all] Error 2\n'));
  assert.ok(!looksLikeTraceback('ls: cannot access x: No such file or directory'));
});

test('keepTail keeps the end, from a line start', () => {
  assert.equal(keepTail('aaa\nbbb\nccc', 6), 'ccc');
  assert.equal(keepTail('short', 100), 'short');
});
