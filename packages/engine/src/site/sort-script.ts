/**
 * The one script of the site: sorts a table's rows in place when a sortable header is used.
 * Without it the header links ask the server for the sorted page, so tables work without JS.
 * Cells carry `data-value` (a number or text); empty values (no score) always sort last.
 */
export const SORT_SCRIPT = `
(function(){
  function val(row,i){var c=row.cells[i];return c?c.getAttribute("data-value"):null;}
  function compare(a,b,num){
    if(a===b)return 0;if(a===""||a===null)return 1;if(b===""||b===null)return -1;
    if(num)return Number(a)-Number(b);
    return a<b?-1:a>b?1:0;
  }
  document.querySelectorAll("table[data-sortable]").forEach(function(table){
    var heads=table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads,function(th,i){
      var control=th.querySelector(".sort");if(!control)return;
      control.addEventListener("click",function(ev){
        ev.preventDefault();
        var asc=th.getAttribute("aria-sort")!=="ascending";
        if(th.getAttribute("aria-sort")===null||th.getAttribute("aria-sort")==="none")asc=th.getAttribute("data-first")!=="descending";
        var num=th.getAttribute("data-type")==="number";
        var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
        rows.sort(function(r1,r2){
          var a=val(r1,i),b=val(r2,i);
          if(a===""||b===""||a===null||b===null)return compare(a,b,num);
          var d=compare(a,b,num);return asc?d:-d;
        });
        rows.forEach(function(r){body.appendChild(r);});
        Array.prototype.forEach.call(heads,function(h){if(h.querySelector(".sort"))h.setAttribute("aria-sort","none");});
        th.setAttribute("aria-sort",asc?"ascending":"descending");
        table.setAttribute("data-sorted-by",th.getAttribute("data-key")||String(i));
      });
    });
    table.setAttribute("data-enhanced","true");
  });
})();
`;
