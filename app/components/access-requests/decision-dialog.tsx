import { Form, useNavigate } from "@remix-run/react";
import { Button, ButtonLink } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { FormError } from "~/components/ui/field";

export type DecisionKind = "approve" | "reject";

const COPY = {
  approve: {
    title: "Confirm Request Approval",
    verb: "approve",
    busy: "Confirming request...",
    variant: "primary",
  },
  reject: {
    title: "Confirm Request Rejection",
    verb: "reject",
    busy: "Rejecting request...",
    variant: "danger",
  },
} as const;

/**
 * The confirm step of Approve / Reject. It is opened by the URL (?approve={id} / ?reject={id}),
 * so the server renders it and its form posts without JavaScript; Cancel is a link back to the
 * list, and with JavaScript Escape or the overlay do the same.
 */
export function DecisionDialog({
  kind,
  request,
  closeHref,
  formAction,
  busy,
  error,
}: {
  kind: DecisionKind;
  request: { id: string; fullName: string };
  closeHref: string;
  formAction: string;
  busy: boolean;
  error?: string | null;
}) {
  const navigate = useNavigate();
  const copy = COPY[kind];
  const name = request.fullName || "Unnamed";
  return (
    <Dialog
      open
      // Explicit: the shared Dialog passes role through, and an undefined one drops Radix's default.
      role="dialog"
      onOpenChange={(open) => {
        if (!open) navigate(closeHref, { preventScrollReset: true });
      }}
      title={copy.title}
      description={`Are you sure you want to ${copy.verb} request access of ${name}?`}
    >
      <Form method="post" action={formAction} preventScrollReset className="space-y-4">
        <FormError message={error} />
        <input type="hidden" name="id" value={request.id} />
        <div className="flex justify-end gap-2">
          <ButtonLink to={closeHref} variant="secondary" preventScrollReset>
            Cancel
          </ButtonLink>
          <Button type="submit" name="intent" value={kind} variant={copy.variant} disabled={busy}>
            {busy ? copy.busy : "Yes, confirm"}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
