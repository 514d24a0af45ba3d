// @vitest-environment happy-dom
/**
 * The patch of @conform-to/react (patches/, docs/decisions/052-form-validation-after-hydration.md):
 * a form rendered with `defaultNoValidate: false` (the browser checks the constraint until
 * JavaScript runs) turns on conform's own validation in a transition, not in a synchronous
 * render right after the first commit. Unpatched, `flushSync` would return with every such form
 * already re-rendered: on the dashboard, 51 forms in the task that ends hydration.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { describe, expect, it } from "vitest";

/** Until React's scheduler has run what is pending (its tasks are macrotasks). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

function Probe() {
  const [form] = useForm({ id: "probe", defaultNoValidate: false });
  return (
    <form {...getFormProps(form)}>
      <input name="email" required />
    </form>
  );
}

describe("@conform-to/react patch: validation taken over in a transition", () => {
  it("commits the form as the server rendered it, and sets noValidate in a later render", async () => {
    const container = document.createElement("div");
    document.body.append(container);
    const root = createRoot(container);
    const form = () => container.querySelector("form")!;

    // The first render and commit, with their layout effects, and any synchronous update those
    // effects make.
    flushSync(() => root.render(<Probe />));
    expect(form().noValidate, "still the browser's validation after the first commit").toBe(false);

    // The transition renders once React's scheduler gets to it.
    await settled();
    expect(form().noValidate, "conform validates once the transition has rendered").toBe(true);
    root.unmount();
    container.remove();
  });
});
