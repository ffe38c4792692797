// Copy buttons (data-copy) of the transformsvc admin; no library.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest(".ts-copy");
  if (!button) return;
  event.preventDefault();
  var text = button.getAttribute("data-copy");
  function done() {
    button.classList.add("ts-copied");
    button.textContent = "✓";
    setTimeout(function () { button.classList.remove("ts-copied"); button.textContent = "⧉"; }, 1200);
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done);
    return;
  }
  var area = document.createElement("textarea");  // plain http: the old way
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); done(); } finally { document.body.removeChild(area); }
});
