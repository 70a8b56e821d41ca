export function meta() {
  return [{ title: 'Soovenirs : numérisation de vos souvenirs' }];
}

export default function Home() {
  return (
    <main>
      <h1>Soovenirs</h1>
    </main>
  );
}
