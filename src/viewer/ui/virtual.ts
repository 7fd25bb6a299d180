/**
 * @module viewer/ui/virtual
 * A virtualised list for Preact on @tanstack/virtual-core: only the rows in view (plus a few) are
 * in the DOM, so 20,000 questions scroll and filter as smoothly as 20.
 */
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

type Options = Pick<
  VirtualizerOptions<HTMLElement, HTMLElement>,
  'count' | 'getScrollElement' | 'estimateSize' | 'overscan' | 'paddingStart'
>;

/** The virtualizer of a scrolling element; the component re-renders when the visible range changes. */
export function useVirtualizer(options: Options): Virtualizer<HTMLElement, HTMLElement> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, HTMLElement> = {
    ...options,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => rerender(1),
  };
  const [instance] = useState(() => new Virtualizer<HTMLElement, HTMLElement>(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
