// Radix primitives that only show something once a person acts (menus, the picker's popover,
// tooltips, toasts): about 30 KB gzip with floating-ui that a page's first view does not need.
// Each of their users renders its plain version until they are loaded (./popups.ts).
export * as DropdownMenu from "@radix-ui/react-dropdown-menu";
export * as Popover from "@radix-ui/react-popover";
export * as Toast from "@radix-ui/react-toast";
export * as Tooltip from "@radix-ui/react-tooltip";
