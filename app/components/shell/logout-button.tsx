import { Form } from "@remix-run/react";
import { forwardRef, type ButtonHTMLAttributes } from "react";
import { useIsPending } from "~/utils/use-is-pending";

export const LOGOUT_ACTION = "/auth/logout";

/** 'Logout' while idle, 'Logging out...' while the logout POST is under way. */
export function useLoggingOut() {
  return useIsPending({ formAction: LOGOUT_ACTION });
}

/** A POST form (logout changes state, so never a link). */
export const LogoutButton = forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement>>(
  function LogoutButton(props, ref) {
    const busy = useLoggingOut();
    return (
      <Form method="post" action={LOGOUT_ACTION}>
        <button ref={ref} type="submit" disabled={busy} {...props}>
          {busy ? "Logging out..." : "Logout"}
        </button>
      </Form>
    );
  },
);
