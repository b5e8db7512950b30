// Tables that turn into stacked rows on phones (style.css, max-width 480px): each body
// cell carries its column's header as data-label, shown before the value there, while
// the header row stays in the table (visually hidden) for its semantics.

/** Marks `table` as stackable and labels its body cells from the header row; returns it. */
export function stackable(table) {
  const heads = [...(table.tHead?.rows[0]?.cells || [])].map((c) => c.textContent.trim());
  table.classList.add("stack");
  for (const row of table.tBodies[0]?.rows || []) {
    [...row.cells].forEach((cell, i) => {
      if (cell.tagName === "TD" && heads[i]) cell.dataset.label = heads[i];
    });
  }
  return table;
}
