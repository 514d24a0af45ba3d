import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const DATABASE = {
  group: ["~/db/*", "**/db/*"],
  message: "Routes and components reach the database through a service (app/services).",
};
/** The database drivers and query builder, which scripts may use but routes and components not. */
const DRIVERS = {
  group: ["drizzle-orm", "drizzle-orm/*", "pg", "pg-boss", "@electric-sql/*"],
  message: "Routes and components reach the database through a service (app/services).",
};
const PROVIDERS = {
  group: ["~/providers/*", "~/providers/**", "**/providers/*", "**/providers/**"],
  message: "Routes and components reach outside services through a service (app/services).",
};
/**
 * An area of app/services is used through its index (`~/services/<area>` for what runs in the
 * browser too, `~/services/<area>/index.server` for the rest): its other modules are its own.
 */
const SERVICE_INTERNALS = {
  group: ["~/services/*/*", "!~/services/*/index.server"],
  message:
    "Import another area of app/services through its index: ~/services/<area> or ~/services/<area>/index.server.",
};
/** Inside app/services, an area reaches another only by its index, never by a relative path. */
const OTHER_AREA = {
  group: ["../*"],
  message: "Import another area of app/services through its index (~/services/<area>...).",
};
/** The SDKs of the vendors behind app/providers, and the mail transport. */
const VENDORS = {
  group: ["@netlify/*", "@vercel/*", "@sanity/*", "@octokit/*", "stripe", "resend", "nodemailer"],
  message: "Only app/providers (and the mail service) talk to vendors.",
};

/** A `<Form method="post">`, `<fetcher.Form method="post">` or `<form method="post">` element. */
const POST_FORM =
  ":matches([openingElement.name.name=/^(Form|form)$/], [openingElement.name.property.name='Form'])" +
  ":has(> JSXOpeningElement:has(> JSXAttribute[name.name='method'][value.value='post']))";
/** ... holding a field a person fills in: a text box, a choice or a list, not a hidden field. */
const TAKES_INPUT =
  ":has(JSXOpeningElement[name.name=/^(input|textarea|select|Field|TextareaField|SelectField)$/]" +
  ":not(:has(JSXAttribute[name.name='type'][value.value=/^(hidden|submit)$/])))";

/**
 * The forms rule (docs/architecture.md, Services): one way to write a page form. Selectors of
 * `no-restricted-syntax`, so each message says what to do instead.
 */
const FORM_RULES = [
  {
    // useActionData<FormReply>() trusts any reply, whichever form posted; useFormReply(intent)
    // (app/web/form-reply.ts) returns only the reply for that form.
    selector:
      "CallExpression[callee.name='useActionData'] > TSTypeParameterInstantiation TSTypeReference[typeName.name=/^(FormReply|MembersActionData)$/]",
    message:
      "Read a form's reply with useFormReply(intent) or useIntentForm (only the reply for that form), not useActionData<FormReply>().",
  },
  {
    selector:
      "CallExpression[callee.name='useForm'] > ObjectExpression:not(:has(> Property[key.name='constraint']))",
    message:
      "useForm needs `constraint: getZodConstraint(schema)`, the schema the action parses (or use useIntentForm).",
  },
  {
    // The constraint alone does nothing before hydration: conform renders `novalidate` unless
    // told otherwise.
    selector:
      "CallExpression[callee.name='useForm'] > ObjectExpression:not(:has(> Property[key.name='defaultNoValidate'][value.value=false]))",
    message:
      "useForm needs `defaultNoValidate: false`, so the browser applies the constraint before JavaScript loads.",
  },
  {
    selector:
      "CallExpression[callee.name='useForm'] > ObjectExpression:not(:has(> Property[key.name='id']))",
    message: "useForm needs an `id` (the form's intent), so replies go to the form that posted.",
  },
  {
    // A form that posts what a person typed or chose is a conform form: its fields carry the
    // schema's constraints and its errors come back to it. Forms of buttons and hidden fields only
    // (a command: delete, resend, sign out) post no input and are not meant here.
    selector: `JSXElement${POST_FORM}${TAKES_INPUT}:not(:has(> JSXOpeningElement:has(> JSXSpreadAttribute)))`,
    message:
      "A form that posts a person's input is a conform form: write it as <IntentForm form={form}> with the form of useIntentForm (or spread {...getFormProps(form)}), its fields as <Field field={fields.x}>.",
  },
  {
    // The confirmation dialog's form, when its children are fields (a password, a typed name).
    selector: `JSXElement[openingElement.name.name='ConfirmDialog']${TAKES_INPUT}:not(:has(> JSXOpeningElement:has(> JSXAttribute[name.name='formProps'])))`,
    message:
      "A ConfirmDialog with fields is a conform form: pass formProps={getFormProps(form)} from useIntentForm and give its fields the schema's constraints.",
  },
  {
    selector: "Literal[value='Unknown form']",
    message:
      "An unknown intent is answered by dispatchIntent (or unknownForm) in app/web/intents.server.ts.",
  },
];

/**
 * Every form action answers in one shape, conform's reply through formReply (app/web), which
 * also sets the status and Retry-After: no error answer built by hand in a form module.
 */
const REPLY_RULES = [
  {
    selector:
      "CallExpression[callee.name=/^(data|json)$/] > ObjectExpression:nth-child(1) > Property[key.name=/^(error|message|fieldErrors|result)$/]",
    message:
      "A form action answers with formReply({ result: submission.reply() }, failure), not an error built by hand.",
  },
  {
    selector:
      "CallExpression[callee.object.name='Response'][callee.property.name='json'] > ObjectExpression:nth-child(1) > Property[key.name=/^(error|message|fieldErrors|result)$/]",
    message:
      "A form action answers with formReply({ result: submission.reply() }, failure), not an error built by hand.",
  },
  {
    selector: "Literal[value=/^retry-after$/i]",
    message: "formReply (or apiError for the JSON API) sets Retry-After from the error.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "data/**",
      // The workspace packages' build output (npm run build:packages).
      "client/dist/**",
      "cli/dist/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "drizzle/**",
      // Scratch space of the measuring scripts (saved builds of scripts/bench/lighthouse-ab.mjs).
      ".tmp/**",
      "backups/**",
      // Generated by `npm run api:client` (openapi-typescript), not written by hand.
      "client/schema.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-imports": ["error", { patterns: [DATABASE, SERVICE_INTERNALS] }],
    },
  },
  {
    // Routes, components and the HTTP edge (app/web) see the outside world only through services:
    // no providers, no vendor SDKs, no database driver.
    files: ["app/routes/**", "app/components/**", "app/web/**", "app/root.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [DATABASE, DRIVERS, PROVIDERS, VENDORS, SERVICE_INTERNALS] },
      ],
    },
  },
  {
    // Page forms: routes, components and the HTTP edge (the dispatcher itself excepted).
    files: ["app/routes/**", "app/components/**", "app/web/**"],
    ignores: ["app/web/intents.server.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-syntax": ["error", ...FORM_RULES] },
  },
  {
    // Form modules: the page routes (not the JSON API) and the components' action helpers.
    files: ["app/routes/**", "app/components/**/*action.server.ts"],
    ignores: ["app/routes/api.*", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-syntax": ["error", ...FORM_RULES, ...REPLY_RULES] },
  },
  {
    // The /local/* pages are the local providers' own stand-in sites, studios and sign-in pages.
    files: ["app/routes/local.*"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [DATABASE, DRIVERS, VENDORS, SERVICE_INTERNALS] },
      ],
    },
  },
  {
    // Utilities are the bottom layer: everything may use them, they use nothing of ours but each
    // other (the HTTP edge that needs services is app/web).
    files: ["app/utils/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            DATABASE,
            {
              group: ["~/services/*", "~/web/*", "~/jobs/*", "~/providers/*", "~/components/*"],
              message: "app/utils is the bottom layer: it imports no service, job or web module.",
            },
          ],
        },
      ],
    },
  },
  {
    // Only services, jobs, the db layer, local providers and boot may import the database; they
    // too use an area of app/services through its index.
    files: [
      "app/services/**",
      "app/jobs/**",
      "app/db/**",
      "app/providers/**/local.server.ts",
      "app/providers/**/local/**",
      "app/entry.server.tsx",
    ],
    rules: { "no-restricted-imports": ["error", { patterns: [SERVICE_INTERNALS] }] },
  },
  {
    files: ["app/services/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [SERVICE_INTERNALS, OTHER_AREA] }] },
  },
  {
    // Tests reach into modules to test them.
    files: ["tests/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": "off" },
  },
);
