import { JoinColumn, ManyToOne } from 'typeorm';

/**
 * A foreign key on an existing id column, without making the relation part of the entity's API:
 * code keeps reading and writing the plain id (`organizationId`), the database keeps the rows
 * consistent. Deleting a referenced row is refused. The target is named by its entity class name
 * (`'Organization'`), so a module's entity can reference another module's table without importing
 * its entity class.
 */
export function ForeignKey(target: string, column: string): PropertyDecorator {
  return (prototype, property) => {
    ManyToOne(target, { onDelete: 'RESTRICT' })(prototype, property as string);
    JoinColumn({ name: column })(prototype, property as string);
  };
}
