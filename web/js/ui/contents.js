// The contents bar: marks the chapter in view with aria-current as the reader scrolls. An IntersectionObserver
// watches a thin band a third of the way down the screen, so no code runs per scroll event; the chapter that
// crosses the band is the current one (none while the header fills it).
const BAND = '-33% 0px -66% 0px'; // a band 1 % of the screen tall, a third of the way down

/** Starts marking the chapter in view among `nav`'s links (href="#id"). */
export function trackContents(nav) {
  const links = [...nav.querySelectorAll('a[href^="#"]')];
  const chapters = links.map((a) => document.getElementById(a.hash.slice(1))).filter(Boolean);
  const inBand = new Set();
  let current = null;
  const mark = () => {
    const next = chapters.find((chapter) => inBand.has(chapter)) ?? null; // the first in page order
    if (next === current) {
      return;
    }
    current = next;
    for (const a of links) {
      if (next && a.hash === `#${next.id}`) {
        a.setAttribute('aria-current', 'location');
        keepInView(a);
      } else {
        a.removeAttribute('aria-current');
      }
    }
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          inBand.add(entry.target);
        } else {
          inBand.delete(entry.target);
        }
      }
      mark();
    },
    { rootMargin: BAND },
  );
  chapters.forEach((chapter) => observer.observe(chapter));
}

/** Scrolls the bar sideways (only the bar, never the page) so the current link shows on a narrow screen. */
function keepInView(link) {
  const bar = link.closest('ol');
  const left = link.parentElement.offsetLeft - bar.offsetLeft;
  const right = left + link.parentElement.offsetWidth;
  if (left < bar.scrollLeft || right > bar.scrollLeft + bar.clientWidth) {
    bar.scrollTo({ left: Math.max(0, left - 16) });
  }
}
