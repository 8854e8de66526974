/**
 * The keyboard door panel: each site's door (people first, strict, surge), its keyboard tokens over
 * the last minute and their share, against its learned baseline and where a surge begins
 * (GET /dashboard/keyboard; docs/keyboard-solves.md, The keyboard budget).
 */
interface DoorView {
  site: string;
  door: string;
  mode: string;
  since: number;
  rate: number;
  share: number;
  base: { rate: number; share: number };
  level: { rate: number; share: number };
}

const HEADINGS = [
  'site',
  'door',
  'mode',
  'since',
  'keyboard tokens / min',
  'share',
  'baseline / min',
  'baseline share',
  'surge above / min',
  'surge above share',
];
const fixed = (x: number, places: number) => x.toFixed(places);

/** Fetches the doors and shows them as a table in the panel `panel-keyboard`, made at the end of `#panels` when absent. */
export async function showKeyboardDoors(): Promise<void> {
  const res = await fetch('/dashboard/keyboard', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) return;
  const { doors } = (await res.json()) as { doors: DoorView[] };
  let section = document.getElementById('panel-keyboard');
  if (section === null) {
    section = document.createElement('section');
    section.id = 'panel-keyboard';
    section.className = 'panel';
    const title = document.createElement('h2');
    title.textContent = 'Keyboard door';
    section.append(title, document.createElement('table'));
    document.getElementById('panels')!.append(section);
  }
  const table = section.querySelector('table')!;
  const row = (cells: string[], tag: 'th' | 'td') => {
    const tr = document.createElement('tr');
    for (const text of cells) {
      const cell = document.createElement(tag);
      cell.textContent = text;
      tr.append(cell);
    }
    return tr;
  };
  table.replaceChildren(
    row(HEADINGS, 'th'),
    ...doors.map((d) =>
      row(
        [
          d.site || '(every site)',
          d.door,
          d.mode,
          new Date(d.since).toLocaleTimeString(),
          fixed(d.rate, 1),
          fixed(d.share, 3),
          fixed(d.base.rate, 2),
          fixed(d.base.share, 3),
          fixed(d.level.rate, 1),
          fixed(d.level.share, 3),
        ],
        'td',
      ),
    ),
  );
  section.dataset.doors = String(doors.length);
}
