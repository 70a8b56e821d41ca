import { type CopyWorkCard, copiesLabel } from '~/domain/orders/extra-copies';

/*
 * What the workshop copies for an order of extra copies (decision 029), on its board card:
 * how many keys or DVDs, which files of which order, and the gift message to slip in the parcel.
 */

export function CopyWorkSummary({ work }: { work: CopyWorkCard }) {
  const more = work.fileCount - work.fileNames.length;
  return (
    <div className="flex flex-col gap-1 rounded border border-border p-2">
      <p className="font-medium">
        Copier {work.fileCount}&nbsp;fichier{work.fileCount > 1 ? 's' : ''} de la commande {work.sourceNumber} sur{' '}
        {copiesLabel(work.medium, work.copies)}
      </p>
      <details>
        <summary className="cursor-pointer">Fichiers à copier</summary>
        <ul className="list-disc ps-5">
          {work.fileNames.map((name) => (
            <li key={name} className="break-all">
              {name}
            </li>
          ))}
          {more > 0 ? <li>et {more}&nbsp;autres</li> : null}
        </ul>
      </details>
      {work.gift ? (
        <p>Cadeau{work.giftMessage ? <>&nbsp;: «&nbsp;{work.giftMessage}&nbsp;»</> : ' (sans message)'}</p>
      ) : null}
    </div>
  );
}
