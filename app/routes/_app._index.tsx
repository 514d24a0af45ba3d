import { useRouteLoaderData } from "@remix-run/react";

export default function Home() {
  const data = useRouteLoaderData<{ user: { name: string } }>("routes/_app");
  return <h1 className="text-2xl font-semibold">Projects of {data?.user.name}</h1>;
}
