// Tables that turn into stacked rows on phones (style.css, max-width 480px): each body
// cell carries its column's header as data-label, shown before the value there, while
// the header row stays in the table (visually hidden). The CSS gives the table's parts
// other `display` values there, which makes some browsers (WebKit) drop their table
// semantics: the roles are set explicitly (`tableRoles`).

/** Marks `table` as stackable and labels its body cells from the header row; returns it. */
export function stackable(table) {
  const heads = [...(table.tHead?.rows[0]?.cells || [])].map((c) => c.textContent.trim());
  table.classList.add("stack");
  for (const row of table.tBodies[0]?.rows || []) {
    [...row.cells].forEach((cell, i) => {
      if (cell.tagName === "TD" && heads[i]) cell.dataset.label = heads[i];
    });
  }
  return tableRoles(table);
}

/** ARIA roles on every part of `table` (kept whatever its CSS `display`); returns it. */
export function tableRoles(table) {
  table.setAttribute("role", "table");
  for (const group of [table.tHead, ...table.tBodies, table.tFoot]) {
    if (!group) continue;
    group.setAttribute("role", "rowgroup");
    for (const row of group.rows) {
      row.setAttribute("role", "row");
      for (const cell of row.cells) {
        const header = cell.tagName === "TH";
        cell.setAttribute("role", header ? (group === table.tHead ? "columnheader" : "rowheader") : "cell");
      }
    }
  }
  return table;
}
