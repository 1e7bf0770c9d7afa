// Controls built generically from `legal_actions`: one form per entry, one control per
// parameter domain ({"one_of"}, {"subset_of", "min", "max"}, {"range": [lo, hi]}). A rule
// change on the server needs no change here; the game modules only say how a value looks.

import { h } from "./dom.js";

const BUTTONS_UP_TO = 30; // a lone one_of/range with this many values or fewer: one button each

function valueKey(value) {
  return JSON.stringify(value);
}

// One legal-action entry as a form. `look(type, param, value)` renders a value (a card, a die,
// a seat name...); `submit(action)` posts it.
function entryForm(entry, look, submit, memory) {
  const params = Object.entries(entry.params || {});
  const entryKey = JSON.stringify(entry); // a choice half made survives a redraw of the same entry
  const remember = (name, value) => memory.set(`${entryKey}|${name}`, value);
  const recall = (name) => memory.get(`${entryKey}|${name}`);
  const form = h("form", { class: "action", "data-action": entry.type });
  const label = h("p", { class: "action-label" }, entry.label);
  form.appendChild(label);
  const send = (action) => submit(action);

  if (params.length === 0) {
    form.appendChild(h("button", { type: "submit", class: "act primary" }, entry.label));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send({ type: entry.type });
    });
    label.hidden = true;
    return form;
  }

  if (params.length === 1) {
    const [name, domain] = params[0];
    let values = null;
    if (domain.one_of && domain.one_of.length <= BUTTONS_UP_TO) values = domain.one_of;
    if (domain.range && domain.range[1] - domain.range[0] < BUTTONS_UP_TO) {
      values = [];
      for (let v = domain.range[0]; v <= domain.range[1]; v++) values.push(v);
    }
    if (values) {
      const group = h("div", { class: "choices", role: "group", "aria-label": entry.label });
      for (const value of values) {
        group.appendChild(
          h(
            "button",
            {
              type: "button",
              class: "choice act",
              "data-param": name,
              "data-value": valueKey(value),
              onclick: () => send({ type: entry.type, [name]: value }),
            },
            look(entry.type, name, value),
          ),
        );
      }
      form.appendChild(group);
      form.addEventListener("submit", (event) => event.preventDefault());
      return form;
    }
  }

  // The general case: a control per parameter, then one submit button.
  const readers = [];
  const button = h("button", { type: "submit", class: "act primary", disabled: true }, entry.label);
  const refresh = () => {
    button.disabled = !readers.every((reader) => reader.valid());
  };
  for (const [name, domain] of params) {
    const field = h("div", { class: "param", "data-param": name });
    if (domain.subset_of) {
      const chosen = new Set(recall(name) || []);
      const { min, max } = domain;
      const hint = h(
        "span",
        { class: "hint" },
        min === max ? `choose ${min}` : `choose ${min} to ${max}`,
      );
      const group = h("div", { class: "picks", role: "group", "aria-label": `${name}: ${hint.textContent}`, "data-min": min, "data-max": max });
      const toggles = domain.subset_of.map((value) => {
        const key = valueKey(value);
        const toggle = h(
          "button",
          {
            type: "button",
            class: "pick",
            "aria-pressed": String(chosen.has(key)),
            "data-value": key,
            onclick: () => {
              if (chosen.has(key)) chosen.delete(key);
              else {
                if (max === 1) chosen.clear();
                if (chosen.size >= max) return;
                chosen.add(key);
              }
              for (const t of toggles) t.setAttribute("aria-pressed", String(chosen.has(t.dataset.value)));
              remember(name, [...chosen]);
              refresh();
            },
          },
          look(entry.type, name, value),
        );
        return toggle;
      });
      group.append(...toggles);
      field.append(h("span", { class: "param-name" }, name, " "), hint, group);
      readers.push({
        name,
        valid: () => chosen.size >= min && chosen.size <= max,
        value: () => domain.subset_of.filter((v) => chosen.has(valueKey(v))),
      });
    } else if (domain.one_of) {
      const id = `p-${entry.type}-${name}-${entryKey.length}`;
      const select = h(
        "select",
        { id, "data-param": name, onchange: () => { remember(name, select.value); refresh(); } },
        domain.one_of.map((value, i) =>
          h("option", { value: String(i) }, String(look(entry.type, name, value, true))),
        ),
      );
      if (recall(name) !== undefined) select.value = recall(name);
      field.append(h("label", { for: id, class: "param-name" }, name), " ", select);
      readers.push({ name, valid: () => select.value !== "", value: () => domain.one_of[Number(select.value)] });
    } else if (domain.range) {
      const [lo, hi] = domain.range;
      const id = `p-${entry.type}-${name}-${entryKey.length}`;
      const input = h("input", {
        id, type: "number", min: lo, max: hi, step: 1, value: recall(name) ?? lo,
        oninput: () => { remember(name, input.value); refresh(); },
      });
      field.append(h("label", { for: id, class: "param-name" }, `${name} (${lo}–${hi})`), " ", input);
      readers.push({
        name,
        valid: () => Number.isInteger(Number(input.value)) && input.value !== "" && +input.value >= lo && +input.value <= hi,
        value: () => Number(input.value),
      });
    } else {
      field.append(h("span", { class: "error" }, `unknown domain for ${name}`));
      readers.push({ name, valid: () => false, value: () => null });
    }
    form.appendChild(field);
  }
  form.appendChild(button);
  refresh();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (button.disabled) return;
    const action = { type: entry.type };
    for (const reader of readers) action[reader.name] = reader.value();
    send(action);
  });
  return form;
}

// The whole panel. While a post is in flight every control is disabled.
export function actionPanel(legal, { look, submit, memory = new Map() }) {
  const panel = h("div", { class: "actions", "data-count": legal.length });
  const run = async (action) => {
    memory.clear();
    for (const control of panel.querySelectorAll("button, select, input")) control.disabled = true;
    panel.classList.add("busy");
    try {
      await submit(action);
    } finally {
      panel.classList.remove("busy");
    }
  };
  for (const entry of legal) panel.appendChild(entryForm(entry, look, run, memory));
  return panel;
}
