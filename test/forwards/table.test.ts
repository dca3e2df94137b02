import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { WebForward } from '../../src/forwards/model.ts'
import { ForwardTable, normalHost } from '../../src/forwards/table.ts'

function forward (id: string, zone: string, host: string, path = '', anchor = ''): WebForward {
  return { id, zone, host, path, anchor, redirectTo: `https://target.example/${id}`, mode: 301, relative: 'none', alternatives: [] }
}

test('the most specific path wins; a path covers itself and what is below it, not its siblings', () => {
  const table = new ForwardTable()
  table.setZone('example.com.', [
    forward('HOST', 'example.com.', 'www.example.com'),
    forward('A', 'example.com.', 'www.example.com', '/a'),
    forward('AB', 'example.com.', 'www.example.com', '/a/b')
  ])
  assert.equal(table.lookup('www.example.com', '/')?.id, 'HOST')
  assert.equal(table.lookup('www.example.com', '/a')?.id, 'A')
  assert.equal(table.lookup('www.example.com', '/a/c')?.id, 'A')
  assert.equal(table.lookup('www.example.com', '/ab')?.id, 'HOST')
  assert.equal(table.lookup('www.example.com', '/a/b/c')?.id, 'AB')
  assert.equal(table.lookup('other.example.com', '/'), undefined)
})

test('the Host header is matched without case, port or trailing dot', () => {
  const table = new ForwardTable()
  table.setZone('example.com.', [forward('X', 'example.com.', 'www.example.com')])
  assert.equal(table.lookup('WWW.Example.COM:8080', '/')?.id, 'X')
  assert.equal(table.lookup('www.example.com.', '/')?.id, 'X')
  assert.equal(normalHost('[::1]:80'), '[::1]:80')
})

test('a forward with an anchor yields to the same path without one', () => {
  const table = new ForwardTable()
  table.setZone('example.com.', [
    forward('ANCHORED', 'example.com.', 'www.example.com', '/index.html', 'top'),
    forward('PLAIN', 'example.com.', 'www.example.com', '/index.html')
  ])
  assert.equal(table.lookup('www.example.com', '/index.html')?.id, 'PLAIN')
})

test('setting a zone replaces only its own forwards; an empty list removes them', () => {
  const table = new ForwardTable()
  table.setZone('example.com.', [forward('A', 'example.com.', 'a.example.com'), forward('B', 'example.com.', 'b.example.com')])
  table.setZone('example.net.', [forward('N', 'example.net.', 'n.example.net')])
  table.setZone('example.com.', [forward('B2', 'example.com.', 'b.example.com')])
  assert.equal(table.lookup('a.example.com', '/'), undefined)
  assert.equal(table.lookup('b.example.com', '/')?.id, 'B2')
  assert.equal(table.size, 2)
  table.setZone('example.com.', [])
  assert.equal(table.size, 1)
  assert.equal(table.lookup('n.example.net', '/x')?.id, 'N')
})
