import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { linkHost, sessionWhere } from './labels';
import { SessionLink } from './SessionLink';

/** Issue 29 §7: a training company's link shows where it goes and opens apart; only http(s) is a link at all. */
describe('session links', () => {
  it('names the host of an http(s) link, nothing for any other scheme', () => {
    expect(linkHost('https://meet.example/room?x=1')).toBe('meet.example');
    expect(linkHost('http://zoom.example:8080/j/1')).toBe('zoom.example');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://files.example',
      'meet.example',
      '',
      null,
    ])
      expect(linkHost(bad)).toBeNull();
    expect(
      sessionWhere({ virtual: true, venue: null, room: null, virtual_url: 'https://meet.example/a' }),
    ).toBe('Online (meet.example)');
  });

  it('opens in a new tab without opener or referrer, its host in the words', () => {
    render(<SessionLink url="https://meet.example/room-1" action="Join the online session" />);
    const link = screen.getByRole('link', { name: /Join the online session on meet\.example/ });
    expect(link.getAttribute('href')).toBe('https://meet.example/room-1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('renders no link for a javascript: address', () => {
    const { container } = render(<SessionLink url="javascript:alert(1)" />);
    expect(container.querySelector('a')).toBeNull();
  });
});
